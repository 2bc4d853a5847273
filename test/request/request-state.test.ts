import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { boundUrl } from '../../src/engine/engine.js';
import { get } from '../../src/index.js';
import { pathOf, shownPath } from '../../src/request/request-state.js';
import { testApp } from '../app/helpers.js';

// The fs object CommonJS modules (pino's writer among them) call.
const fs = createRequire(import.meta.url)('node:fs') as typeof import('node:fs');

// What a request's target becomes in the log, a problem's detail and a span: the path alone.

describe('pathOf', () => {
  it.each([
    ['/users/7?x=1', '/users/7'],
    ['/login?next=http://evil.example/home', '/login'],
    ['/a', '/a'],
    ['http://api.example.com/boom?token=s3cret', '/boom'],
    ['http://api.example.com', '/'],
    ['http://api.example.com?x=1', '/'],
    ['https://h:8443/a/b', '/a/b'],
    ['*', '*'],
    ['example.com:443', 'example.com:443'],
  ])('gives %j the path %j', (url, path) => {
    expect(pathOf(url)).toBe(path);
  });
});

describe('shownPath', () => {
  it('shows a path of up to 512 characters whole and cuts a longer one, saying its length', () => {
    const whole = `/${'a'.repeat(511)}`;
    expect(shownPath(whole)).toBe(whole);
    const long = `/${'a'.repeat(512)}`;
    expect(shownPath(long)).toBe(`${long.slice(0, 512)}…(513 characters)`);
  });
});

describe('boundUrl', () => {
  const bound = (address: unknown) =>
    boundUrl({ server: { address: () => address } } as unknown as FastifyInstance);

  it.each([
    [{ address: '127.0.0.1', family: 'IPv4', port: 8080 }, 'http://127.0.0.1:8080'],
    [{ address: '0.0.0.0', family: 'IPv4', port: 80 }, 'http://localhost:80'],
    [{ address: '::', family: 'IPv6', port: 3000 }, 'http://localhost:3000'],
    [{ address: '::1', family: 'IPv6', port: 3000 }, 'http://[::1]:3000'],
    ['/tmp/app.sock', '/tmp/app.sock'],
    [null, 'null'],
  ])('gives the URL of %j as %s', (address, url) => {
    expect(bound(address)).toBe(url);
  });
});

describe('the engine', () => {
  it('takes its timeouts from the config', () => {
    const { app } = testApp({
      headersTimeoutMs: 4_321,
      requestTimeoutMs: 9_876,
      keepAliveTimeoutMs: 1_234,
    });
    const server = app.fastify.server;
    expect([server.headersTimeout, server.requestTimeout, server.keepAliveTimeout]).toEqual([
      4_321, 9_876, 1_234,
    ]);
  });

  it("writes nothing of its own to stdout or stderr: the request log is the app's logger's", async () => {
    const written: string[] = [];
    const write = fs.write;
    const writeSync = fs.writeSync;
    const spies = [
      vi.spyOn(fs, 'write').mockImplementation(((fd: number, data: unknown, ...rest: never[]) => {
        if (fd !== 1 && fd !== 2) return (write as (...a: unknown[]) => void)(fd, data, ...rest);
        written.push(String(data));
        const done = rest.at(-1) as unknown;
        if (typeof done === 'function') done(null, 0);
      }) as never),
      vi.spyOn(fs, 'writeSync').mockImplementation(((
        fd: number,
        data: unknown,
        ...rest: never[]
      ) => {
        if (fd !== 1 && fd !== 2)
          return (writeSync as (...a: unknown[]) => number)(fd, data, ...rest);
        written.push(String(data));
        return String(data).length;
      }) as never),
    ];
    try {
      const { app, lines } = testApp();
      app.addRoutes(get('/plain', () => ({ ok: 1 })));
      expect((await app.inject('/plain')).statusCode).toBe(200);
      expect(lines).toHaveLength(1);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(written).toEqual([]);
  });
});
