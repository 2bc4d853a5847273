import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, get } from '../../src/index.js';
import { staticMount } from '../../src/static/index.js';
import { requestEntries, testApp } from '../app/helpers.js';
import { rawGet, send, serve } from '../support/serve.js';

const SECRET = 'TOP-SECRET-OUTSIDE-THE-STATIC-DIR';
const base = mkdtempSync(join(tmpdir(), 'keelson-static-'));
const publicDir = join(base, 'public');

beforeAll(() => {
  mkdirSync(join(publicDir, 'sub'), { recursive: true });
  writeFileSync(join(publicDir, 'hello.txt'), 'hello, static world\n');
  writeFileSync(join(publicDir, 'app.js'), 'console.log(1);\n');
  writeFileSync(join(publicDir, 'sub', 'data.json'), '{"a":1}\n');
  writeFileSync(join(publicDir, '.env'), `TOKEN=${SECRET}\n`);
  writeFileSync(join(base, 'secret.txt'), `${SECRET}\n`);
  mkdirSync(join(base, 'private'));
  writeFileSync(join(base, 'private', 'key.txt'), `${SECRET}\n`);
  // Links out of the directory: to a file (relative), to a directory, and an absolute one;
  // and one that stays inside.
  symlinkSync('../secret.txt', join(publicDir, 'leak.txt'));
  symlinkSync(join(base, 'private'), join(publicDir, 'linked-dir'));
  symlinkSync(join(base, 'secret.txt'), join(publicDir, 'absolute.txt'));
  symlinkSync('hello.txt', join(publicDir, 'alias.txt'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('app.static', () => {
  const { app, lines } = testApp();
  let port = 0;
  beforeAll(async () => {
    app.static('/assets', publicDir);
    app.static('/cached/', publicDir, { maxAge: 86_400_000, immutable: true });
    app.addRoutes(get('/api', () => ({ ok: true })));
    port = await serve(app);
  });
  afterAll(() => app.close());

  it('serves a file with its content type, ETag, Last-Modified and Cache-Control', async () => {
    const res = await send(port, '/assets/hello.txt');
    expect(res.status).toBe(200);
    expect(res.text).toBe('hello, static world\n');
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers.etag).toMatch(/^W\/"/);
    expect(Date.parse(res.headers['last-modified'] ?? '')).not.toBeNaN();
    expect(res.headers['cache-control']).toBe('public, max-age=0');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const json = await send(port, '/assets/sub/data.json');
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    const js = await send(port, '/assets/app.js');
    expect(js.headers['content-type']).toMatch(/^(text|application)\/javascript/);
  });

  it('answers 304 with no body to a matching If-None-Match', async () => {
    const first = await send(port, '/assets/hello.txt');
    const again = await send(port, '/assets/hello.txt', {
      headers: { 'if-none-match': first.headers.etag! },
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const changed = await send(port, '/assets/hello.txt', {
      headers: { 'if-none-match': 'W/"other"' },
    });
    expect(changed.status).toBe(200);
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await send(port, '/assets/hello.txt', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe('20');
    expect(res.body.length).toBe(0);
  });

  it('answers a range with 206 and only those bytes, and 416 beyond the end', async () => {
    const res = await send(port, '/assets/hello.txt', { headers: { range: 'bytes=0-4' } });
    expect(res.status).toBe(206);
    expect(res.text).toBe('hello');
    expect(res.headers['content-range']).toBe('bytes 0-4/20');
    const beyond = await send(port, '/assets/hello.txt', { headers: { range: 'bytes=100-200' } });
    expect(beyond.status).toBe(416);
  });

  it('sets max-age and immutable when asked', async () => {
    const res = await send(port, '/cached/hello.txt');
    expect(res.headers['cache-control']).toBe('public, max-age=86400, immutable');
  });

  it('answers 404 problem+json for a file that does not exist, a directory or a dot file', async () => {
    for (const path of [
      '/assets/missing.txt',
      '/assets/sub',
      '/assets/sub/',
      '/assets/',
      '/assets/.env',
    ]) {
      const res = await send(port, path);
      expect(res.status, path).toBe(404);
      expect(res.headers['content-type'], path).toMatch(/^application\/problem\+json/);
      expect(res.text, path).not.toContain(SECRET);
    }
  });

  it('never serves a file outside its directory: every traversal answers 404 problem+json', async () => {
    const absolute = join(base, 'secret.txt');
    const attempts = [
      '/assets/../secret.txt',
      '/assets/sub/../../secret.txt',
      '/assets/%2e%2e/secret.txt',
      '/assets/%2E%2E/secret.txt',
      '/assets/.%2e/secret.txt',
      '/assets/%2e%2e%2fsecret.txt',
      '/assets/..%2fsecret.txt',
      '/assets/..%2Fsecret.txt',
      '/assets/sub%2f..%2f..%2fsecret.txt',
      '/assets/..%5csecret.txt',
      '/assets/..\\secret.txt',
      '/assets/%252e%252e/secret.txt',
      '/assets/sub/%2e%2e/%2e%2e/secret.txt',
      `/assets/${absolute}`,
      `/assets/${encodeURIComponent(absolute)}`,
      `/assets//${absolute}`,
      '/assets//etc/passwd',
      '/assets/%2fetc%2fpasswd',
      '/assets/./hello.txt/../../secret.txt',
      '/assets/%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    ];
    const failures: string[] = [];
    for (const path of attempts) {
      const res = await rawGet(port, path);
      const problem = res.headers['content-type']?.startsWith('application/problem+json');
      if (
        res.status !== 404 ||
        !problem ||
        res.body.includes(SECRET) ||
        res.body.includes('root:')
      ) {
        failures.push(
          `${path} → ${res.status} ${res.headers['content-type']} ${res.body.slice(0, 80)}`,
        );
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers 404 for a symbolic link that leads out of the directory, and follows one that stays in', async () => {
    for (const path of ['/assets/leak.txt', '/assets/linked-dir/key.txt', '/assets/absolute.txt']) {
      for (const method of ['GET', 'HEAD']) {
        const res = await send(port, path, { method });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.text, path).not.toContain(SECRET);
      }
    }
    const inside = await send(port, '/assets/alias.txt');
    expect([inside.status, inside.text]).toEqual([200, 'hello, static world\n']);
  });

  it('serves what links lead to when followSymlinks is on', async () => {
    const { app: open } = testApp();
    open.static('/open', publicDir, { followSymlinks: true });
    const openPort = await serve(open);
    try {
      for (const path of ['/open/leak.txt', '/open/linked-dir/key.txt', '/open/absolute.txt']) {
        expect((await send(openPort, path)).text, path).toBe(`${SECRET}\n`);
      }
    } finally {
      await open.close();
    }
    expect(() => staticMount('/x', publicDir, { followSymlinks: 'yes' as never })).toThrow(
      'static followSymlinks must be a boolean, got yes',
    );
  });

  it('cuts a long refused path in its 404 detail, as every other 404 does', async () => {
    const long = `/assets/${'a'.repeat(600)}/../../secret.txt`;
    const res = await rawGet(port, long);
    expect(res.status).toBe(404);
    const { detail } = JSON.parse(res.body) as { detail: string };
    expect(detail).toMatch(/^No route matches GET \/assets\/a+…\(\d+ characters\)\.$/);
    expect(detail.length).toBeLessThan(600);
  });

  it('logs static requests like any other', async () => {
    lines.length = 0;
    await send(port, '/assets/hello.txt');
    await send(port, '/assets/nope.txt');
    expect(requestEntries(lines).map((e) => [e.method, e.path, e.status])).toEqual([
      ['GET', '/assets/hello.txt', 200],
      ['GET', '/assets/nope.txt', 404],
    ]);
  });

  it('is left out of the OpenAPI document', async () => {
    const doc = await app.openapi();
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/health'))).toEqual(['/api']);
  });
});

describe('app.static with compression on', () => {
  it('compresses a whole file for a client that accepts it, but never a range', async () => {
    const { app } = testApp({ compress: true });
    writeFileSync(join(publicDir, 'big.txt'), 'all work and no play '.repeat(200));
    app.static('/assets', publicDir);
    const port = await serve(app);
    try {
      const whole = await send(port, '/assets/big.txt', { headers: { 'accept-encoding': 'gzip' } });
      expect(whole.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(whole.body).toString()).toBe('all work and no play '.repeat(200));
      const range = await send(port, '/assets/big.txt', {
        headers: { 'accept-encoding': 'gzip', range: 'bytes=0-7' },
      });
      expect(range.status).toBe(206);
      expect(range.headers['content-encoding']).toBeUndefined();
      expect(range.text).toBe('all work');
    } finally {
      await app.close();
    }
  });
});

describe('app.static registration', () => {
  it('refuses a bad prefix, a missing directory, a duplicate prefix and a late call', async () => {
    const app = new App({ serviceName: 'svc' });
    expect(() => app.static('assets', publicDir)).toThrow(
      `static prefix must start with '/', got "assets"`,
    );
    expect(() => app.static('/a', join(base, 'nope'))).toThrow(/is not a directory/);
    expect(() => app.static('/a', join(publicDir, 'hello.txt'))).toThrow(/is not a directory/);
    expect(() => app.static('/a', publicDir, { maxAge: -1 })).toThrow(/maxAge/);
    app.static('/a', publicDir);
    expect(() => app.static('/a/', publicDir)).toThrow(
      'app.static(): the prefix /a already serves a directory',
    );
    await app.ready();
    expect(() => app.static('/b', publicDir)).toThrow(/before the app starts/);
    await app.close();
  });
});
