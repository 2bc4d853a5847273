import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { get } from '../../src/index.js';
import { requestEntries, testApp } from '../app/helpers.js';

// Headers a handler sets, and downloads: a bad header is an error where it is set.

/** What `set` throws, or undefined when it throws nothing. */
function thrownBy(set: () => unknown): unknown {
  try {
    set();
  } catch (err) {
    return err;
  }
  return undefined;
}

describe('c.header()', () => {
  it('throws a TypeError naming the header at the call when the value is past Latin-1', async () => {
    const { app } = testApp();
    let caught: unknown;
    app.addRoutes(
      get('/caught', (c) => {
        caught = thrownBy(() => c.header('content-disposition', 'attachment; filename="日本.txt"'));
        return 'ok';
      }),
    );
    expect((await app.inject('/caught')).statusCode).toBe(200);
    expect(caught).toBeInstanceOf(TypeError);
    expect((caught as Error).message).toBe(
      'c.header("content-disposition"): the value has "日" (U+65E5, past Latin-1) at index 22, ' +
        'which a header cannot carry; for a download name use c.attachment(filename)',
    );
  });

  it('lets an uncaught bad header end in the usual problem+json 500, the cause in the log', async () => {
    const { app, lines } = testApp();
    app.addRoutes(
      get('/bad', (c) => {
        c.header('x-note', 'café ☕');
        return 'never sent';
      }),
    );
    const res = await app.inject('/bad');
    expect(res.statusCode).toBe(500);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.headers['x-note']).toBeUndefined();
    expect(res.json()).toMatchObject({ status: 500 });
    const [entry] = requestEntries(lines);
    expect(entry?.error).toContain('c.header("x-note"): the value has "☕" (U+2615, past Latin-1)');
  });

  it('refuses CR, LF, other control characters and a name that is no token', () => {
    const { app } = testApp();
    const errors: unknown[] = [];
    app.addRoutes(
      get('/x', (c) => {
        errors.push(
          thrownBy(() => c.header('x-a', 'a\r\nset-cookie: x=1')),
          thrownBy(() => c.header('x-b', ['ok', 'b\nc'])),
          thrownBy(() => c.header('x-c', 'nul\0')),
          thrownBy(() => c.header('x c', 'v')),
          thrownBy(() => c.header('x-d', undefined as unknown as string)),
        );
        return 'ok';
      }),
    );
    return app.inject('/x').then((res) => {
      expect(res.statusCode).toBe(200);
      expect(errors.map((e) => (e instanceof TypeError ? e.message : e))).toEqual([
        'c.header("x-a"): the value has a carriage return (U+000D) at index 1, which a header ' +
          'cannot carry; percent-encode it (encodeURIComponent) or send it in the body',
        'c.header("x-b"): the value has a line feed (U+000A) at index 1, which a header cannot ' +
          'carry; percent-encode it (encodeURIComponent) or send it in the body',
        'c.header("x-c"): the value has the control character U+0000 at index 3, which a header ' +
          'cannot carry; percent-encode it (encodeURIComponent) or send it in the body',
        'c.header("x c"): a header name is an HTTP token (letters, digits and !#$%&\'*+-.^_`|~)',
        'c.header("x-d"): the value must be a string, a number or an array of strings, got undefined',
      ]);
    });
  });

  it('sets Latin-1 text, tabs, numbers and lists of values as given', async () => {
    const { app } = testApp();
    app.addRoutes(
      get('/x', (c) =>
        c
          .header('x-latin', 'crème brûlée\tà la carte')
          .header('x-count', 3)
          .header('x-list', ['a', 'b'])
          .noContent(),
      ),
    );
    const res = await app.inject('/x');
    expect(res.statusCode).toBe(204);
    expect(res.rawPayload.length).toBe(0);
    expect(Buffer.from(String(res.headers['x-latin']), 'latin1').toString('latin1')).toBe(
      'crème brûlée\tà la carte',
    );
    expect(res.headers['x-count']).toBe('3');
    expect(res.headers['x-list']).toEqual(['a', 'b']);
  });
});

describe('c.attachment()', () => {
  /** The Content-Disposition a route answers with for `name`. */
  async function dispositionOf(name?: string): Promise<string | undefined> {
    const { app } = testApp();
    app.addRoutes(get('/d', (c) => c.attachment(name).status(200, 'x')));
    const res = await app.inject('/d');
    expect(res.statusCode).toBe(200);
    return res.headers['content-disposition'] as string | undefined;
  }

  it('names any file: an ASCII fallback and the RFC 6266 filename* in UTF-8', async () => {
    const header = await dispositionOf('résumé 2026 (v2)*.pdf');
    expect(header).toBe(
      'attachment; filename="r_sum_ 2026 (v2)*.pdf"; ' +
        "filename*=UTF-8''r%C3%A9sum%C3%A9%202026%20%28v2%29%2A.pdf",
    );
    const star = /filename\*=UTF-8''([^;]+)$/.exec(header!)?.[1];
    expect(decodeURIComponent(star!)).toBe('résumé 2026 (v2)*.pdf');
    // One `_` per character, a pair of UTF-16 halves included; a lone half is U+FFFD.
    expect(await dispositionOf('日本🎉.txt')).toBe(
      'attachment; filename="___.txt"; filename*=UTF-8\'\'%E6%97%A5%E6%9C%AC%F0%9F%8E%89.txt',
    );
    expect(await dispositionOf('a\uD800.txt')).toBe(
      'attachment; filename="a_.txt"; filename*=UTF-8\'\'a%EF%BF%BD.txt',
    );
  });

  it('gives an ASCII name alone, quotes escaped, and control characters never reach the header', async () => {
    expect(await dispositionOf('report.csv')).toBe('attachment; filename="report.csv"');
    expect(await dispositionOf('say "hi"\\.txt')).toBe(
      'attachment; filename="say \\"hi\\"\\\\.txt"',
    );
    expect(await dispositionOf('a\r\nb.txt')).toBe(
      'attachment; filename="a__b.txt"; filename*=UTF-8\'\'a%0D%0Ab.txt',
    );
    expect(await dispositionOf()).toBe('attachment');
  });

  it('sends a Buffer or a stream as the download, with the type the handler set', async () => {
    const pdf = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1');
    const { app } = testApp();
    app.addRoutes(
      get('/buffer', (c) => {
        c.attachment('Überblick.pdf').header('content-type', 'application/pdf');
        return pdf;
      }),
      get('/stream', (c) => {
        c.attachment('rows.csv').header('content-type', 'text/csv; charset=utf-8');
        return Readable.from(['a,b\n', '1,2\n']);
      }),
    );
    const buffer = await app.inject('/buffer');
    expect(buffer.statusCode).toBe(200);
    expect(buffer.headers['content-type']).toBe('application/pdf');
    expect(buffer.headers['content-disposition']).toContain("filename*=UTF-8''%C3%9Cberblick.pdf");
    expect(buffer.rawPayload.equals(pdf)).toBe(true);
    const stream = await app.inject('/stream');
    expect(stream.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(stream.headers['content-disposition']).toBe('attachment; filename="rows.csv"');
    expect(stream.body).toBe('a,b\n1,2\n');
  });
});
