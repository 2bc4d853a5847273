import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type App, file, multipart, post } from '../../src/index.js';
import { multipartOf } from '../../src/uploads/index.js';
import { testApp } from '../app/helpers.js';
import {
  BOUNDARY,
  formBody as body,
  FORM_TYPE,
  type FormPart as Part,
} from '../support/upload-client.js';

let uploadDir: string;
const savedTmp = process.env.TMPDIR;
beforeAll(() => {
  uploadDir = mkdtempSync(join(tmpdir(), 'keelson-uploads-edges-'));
  process.env.TMPDIR = uploadDir;
});
afterAll(() => {
  process.env.TMPDIR = savedTmp;
  rmSync(uploadDir, { recursive: true, force: true });
});
const leftovers = () => readdirSync(uploadDir);

const apps: App[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

async function send(app: App, url: string, payload: Buffer | string) {
  const res = await app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': FORM_TYPE },
    payload,
  });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
}

const bytes = (n: number) => Buffer.alloc(n, 7);

/** An issue-free Standard Schema whose issues have no path, as a hand-written schema may give. */
const pathless: StandardSchemaV1<unknown, string> = {
  '~standard': {
    version: 1,
    vendor: 'test',
    validate: (v) => (v === 'ok' ? { value: 'ok' } : { issues: [{ message: 'Say ok' }] }),
  },
};

function formApp() {
  const { app, lines } = testApp();
  apps.push(app);
  app.addRoutes(
    post(
      '/docs',
      {
        body: multipart({
          big: file({ maxBytes: 1000 }),
          small: file({ maxBytes: 10, optional: true }),
          tags: z.array(z.string().min(2)).or(z.string()),
          size: z.coerce.number().int().optional(),
          word: pathless,
          later: z
            .string()
            .refine(async (v) => v !== 'never', 'Not never')
            .optional(),
        }),
      },
      async (c) => {
        const { big, small } = c.body;
        return {
          keys: Object.keys(c.body).sort(),
          big: big.size,
          small: small?.size ?? null,
          tags: c.body.tags,
          mode: statSync(join(uploadDir, leftovers()[0]!)).mode & 0o777,
        };
      },
    ),
    post(
      '/typed',
      { body: multipart({ pic: file({ types: ['image/png', 'IMAGE/WEBP'] }) }) },
      (c) => c.body.pic.type,
    ),
  );
  return { app, lines };
}

describe('uploads: limits and collected fields', () => {
  it('takes a file of exactly maxBytes, keeps repeated text fields in order, and saves files readable by the owner only', async () => {
    const { app, lines } = formApp();
    const tags: Part[] = Array.from({ length: 8 }, (_, i) => ['tags', `t${i}`]);
    const res = await send(
      app,
      '/docs',
      body([['big', bytes(1000), 'application/octet-stream'], ['word', 'ok'], ...tags]),
    );
    expect(res).toEqual({
      status: 200,
      body: {
        keys: ['big', 'tags', 'word'],
        big: 1000,
        small: null,
        tags: ['t0', 't1', 't2', 't3', 't4', 't5', 't6', 't7'],
        mode: 0o600,
      },
    });
    await expect.poll(leftovers).toEqual([]);
    // Nothing but the request entry: cleaning up found only real files to remove.
    expect(lines.map((l) => JSON.parse(l) as { level: string }).map((e) => e.level)).toEqual([
      'info',
    ]);
  });

  it('answers each way a form breaks the route with its own status, code and detail, and keeps no file', async () => {
    const { app } = formApp();
    const base: Part[] = [
      ['word', 'ok'],
      ['tags', 'ab'],
    ];
    const cases: [string, Part[] | string, number, Record<string, unknown>][] = [
      [
        'a file one byte over the largest maxBytes',
        [['big', bytes(1001), 'application/octet-stream'], ...base],
        413,
        { code: 'PAYLOAD_TOO_LARGE', detail: 'The file in "big" is larger than 1000 bytes.' },
      ],
      [
        'a file over a smaller field’s maxBytes',
        [['big', bytes(5), 'text/plain'], ['small', bytes(100), 'text/plain'], ...base],
        413,
        { code: 'PAYLOAD_TOO_LARGE', detail: 'The file in "small" is larger than 10 bytes.' },
      ],
      [
        'more text fields than the route takes',
        [
          ['big', bytes(5), 'text/plain'],
          ...Array.from({ length: 24 }, (): Part => ['tags', 'ab']),
        ],
        413,
        { code: 'PAYLOAD_TOO_LARGE', detail: 'The form has more fields than this route takes.' },
      ],
      [
        'two files in one file field',
        [['big', bytes(5), 'text/plain'], ['big', bytes(5), 'text/plain'], ...base],
        422,
        {
          code: 'VALIDATION_FAILED',
          detail: 'The request did not pass validation.',
          errors: [{ path: 'body.big', message: 'Only one file is allowed' }],
        },
      ],
      [
        'many files in one file field and many undeclared files',
        [
          ...Array.from({ length: 5 }, (): Part => ['big', bytes(5), 'text/plain']),
          ...Array.from({ length: 20 }, (_, i): Part => [`f${i}`, bytes(5), 'text/plain']),
          ...base,
        ],
        422,
        { errors: [{ path: 'body.big', message: 'Only one file is allowed' }] },
      ],
      [
        'a file in a field the route does not declare',
        [['other', bytes(5), 'text/plain'], ...base],
        422,
        {
          detail: 'The request did not pass validation.',
          errors: [{ path: 'body.other', message: 'Unexpected file' }],
        },
      ],
      [
        'a text value in a file field',
        [['big', 'not a file'], ...base],
        422,
        { errors: [{ path: 'body.big', message: 'Expected a file' }] },
      ],
      [
        'a missing file, a bad nested value, a pathless issue and an async refinement',
        [
          ['tags', 'ab'],
          ['tags', 'x'],
          ['word', 'no'],
          ['later', 'never'],
        ],
        422,
        {
          errors: [
            { path: 'body.big', message: 'Required file' },
            { path: 'body.tags.1', message: expect.any(String) },
            { path: 'body.word', message: 'Say ok' },
            { path: 'body.later', message: 'Not never' },
          ],
        },
      ],
      [
        'a body cut off before its closing boundary',
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="word"\r\n\r\nok`,
        400,
        {
          code: 'MALFORMED_MULTIPART',
          detail: 'The multipart body is malformed or was cut short.',
        },
      ],
    ];
    for (const [what, parts, status, expected] of cases) {
      const res = await send(app, '/docs', typeof parts === 'string' ? parts : body(parts));
      expect(res.status, what).toBe(status);
      expect(res.body, what).toMatchObject(expected);
      if (Array.isArray(expected.errors)) {
        expect(res.body.errors, what).toHaveLength(expected.errors.length);
      }
    }
    await expect.poll(leftovers).toEqual([]);
  });

  it('answers 415 naming multipart/form-data to a JSON, text or empty body', async () => {
    const { app } = formApp();
    for (const type of ['application/json', 'text/plain', undefined]) {
      const res = await app.inject({
        method: 'POST',
        url: '/docs',
        ...(type ? { headers: { 'content-type': type }, payload: '{}' } : {}),
      });
      expect(res.statusCode, type).toBe(415);
      expect(res.json(), type).toMatchObject({
        code: 'UNSUPPORTED_MEDIA_TYPE',
        detail: 'This route takes multipart/form-data.',
      });
    }
  });

  it('compares media types without case and names the accepted ones in the 415', async () => {
    const { app } = formApp();
    const ok = await app.inject({
      method: 'POST',
      url: '/typed',
      headers: { 'content-type': FORM_TYPE },
      payload: body([['pic', bytes(4), 'Image/WebP']]),
    });
    expect(ok.statusCode).toBe(200);
    const gif = await send(app, '/typed', body([['pic', bytes(4), 'image/gif']]));
    expect(gif).toMatchObject({
      status: 415,
      body: {
        code: 'UNSUPPORTED_MEDIA_TYPE',
        detail: 'The file in "pic" is image/gif; expected image/png or image/webp.',
      },
    });
  });
});

describe('file() and multipart() at registration', () => {
  it('refuses a bad maxBytes or types, naming the option', () => {
    for (const maxBytes of [0, -1, 1.5, Number.NaN]) {
      expect(() => file({ maxBytes }), String(maxBytes)).toThrow(
        `file(): maxBytes must be an integer >= 1, got ${String(maxBytes)}`,
      );
    }
    expect(file({ maxBytes: 1 }).maxBytes).toBe(1);
    for (const types of ['image/png', ['image/png', 3]]) {
      expect(() => file({ types: types as never }), JSON.stringify(types)).toThrow(
        'file(): types must be an array of media types such as "image/png"',
      );
    }
    expect(file({ types: ['Image/PNG'] }).types).toEqual(['image/png']);
  });

  it('refuses a shape that is not an object of fields, and a field that is null or undefined', () => {
    for (const shape of [null, undefined, 'avatar', {}]) {
      expect(() => multipart(shape as never), String(shape)).toThrow(
        'multipart() needs an object of fields, e.g. { avatar: file() }',
      );
    }
    for (const field of [null, undefined, 'x', 42]) {
      expect(() => multipart({ note: field as never }), String(field)).toThrow(
        'multipart(): the field "note" must be file() or a Standard Schema',
      );
    }
  });

  it('validates a collected form synchronously, and refuses a value that is not a form', () => {
    const schema = multipart({ doc: file({ optional: true }), note: z.string().optional() });
    const validate = schema['~standard'].validate;
    expect(validate({})).toEqual({ value: {} });
    expect(validate(null as never)).toEqual({
      issues: [{ message: 'Expected a multipart/form-data body' }],
    });
    expect(validate('text' as never)).toEqual({
      issues: [{ message: 'Expected a multipart/form-data body' }],
    });
  });

  it('tells an upload body from any other body', () => {
    const schema = multipart({ doc: file() });
    expect(multipartOf(schema)).toBe(schema);
    for (const other of [null, undefined, 'x', z.object({ shape: z.string() }), { shape: {} }]) {
      expect(multipartOf(other), String(other)).toBeUndefined();
    }
  });

  it('documents each field: files as binary strings with their limits, required unless optional', () => {
    const throwsOnMissing: StandardSchemaV1<unknown, string> = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: (v) => {
          if (v === undefined) throw new Error('no value');
          return { value: String(v) };
        },
      },
    };
    const asyncSchema = z
      .string()
      .optional()
      .refine(async () => true);
    const schema = multipart({
      avatar: file({ maxBytes: 2048, types: ['image/png', 'image/webp'] }),
      scan: file({ maxBytes: 10, types: ['application/pdf'], optional: true }),
      raw: file({ maxBytes: 5 }),
      note: z.string(),
      size: z.number().optional(),
      strict: throwsOnMissing,
      later: asyncSchema,
    });
    const json = schema['~standard'].jsonSchema.input({ target: 'draft-2020-12' });
    expect(json).toMatchObject({
      type: 'object',
      properties: {
        avatar: {
          type: 'string',
          format: 'binary',
          description: 'A file of at most 2048 bytes (image/png, image/webp).',
        },
        scan: {
          type: 'string',
          format: 'binary',
          contentMediaType: 'application/pdf',
          description: 'A file of at most 10 bytes (application/pdf).',
        },
        raw: { type: 'string', format: 'binary', description: 'A file of at most 5 bytes.' },
        note: { type: 'string' },
        size: { type: 'number' },
      },
    });
    expect((json.properties as Record<string, object>).avatar).not.toHaveProperty(
      'contentMediaType',
    );
    expect(json.required).toEqual(['avatar', 'raw', 'note', 'strict', 'later']);
    const allOptional = multipart({ doc: file({ optional: true }), note: z.string().optional() });
    expect(
      allOptional['~standard'].jsonSchema.input({ target: 'draft-2020-12' }),
    ).not.toHaveProperty('required');
  });
});
