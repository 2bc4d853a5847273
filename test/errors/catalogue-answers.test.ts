// Every catalogue code that a request through app.inject() can reach, reached: each answer
// carries the catalogue's status for its code, and the OpenAPI document of the operation lists
// the code wherever it enumerates that status's codes. A new code needs a case here, or a line
// in ONLY_ON_A_SOCKET saying which test covers it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiKey, authorize } from '../../src/auth/index.js';
import type { OpenApiDocument } from '../../src/docs/types.js';
import {
  ERROR_CATALOGUE,
  isKeelsonErrorCode,
  type KeelsonErrorCode,
} from '../../src/errors/index.js';
import {
  type App,
  conflict,
  file,
  get,
  idempotency,
  memoryIdempotencyStore,
  multipart,
  post,
  rateLimit,
  serviceUnavailable,
  ws,
} from '../../src/index.js';
import { testApp } from '../app/helpers.js';

/** Codes only a raw socket (or a failing disk) can bring about, and the tests that do. */
const ONLY_ON_A_SOCKET: Partial<Record<KeelsonErrorCode, string>> = {
  MALFORMED_REQUEST: 'test/http/client-error.test.ts',
  HEADERS_TOO_LARGE: 'test/http/client-error.test.ts',
  REQUEST_TIMEOUT: 'test/http/client-error.test.ts',
  EXPECTATION_FAILED: 'test/http/client-error.test.ts',
  UPLOAD_NOT_STORED: 'test/http/uploads-storage.test.ts',
  INSUFFICIENT_STORAGE: 'test/http/uploads-storage.test.ts',
};

const dir = mkdtempSync(join(tmpdir(), 'keelson-catalogue-'));
let app: App;
let doc: OpenApiDocument;
let release!: () => void;
const held = new Promise<void>((resolve) => {
  release = resolve;
});

beforeAll(async () => {
  writeFileSync(join(dir, 'a.txt'), 'hello, catalogue\n');
  app = testApp({ bodyLimit: 64 }).app;
  const guard = apiKey({ verify: (key) => (key === 'good' ? { name: 'a' } : undefined) });
  const once = idempotency({ store: memoryIdempotencyStore() });
  app.static('/files', dir);
  app.addRoutes(
    get('/plain', () => ({ ok: true })),
    post('/things', { body: z.object({ n: z.number() }) }, (c) => c.body),
    get('/item/:id', { params: z.object({ id: z.string() }) }, (c) => c.params),
    get('/guarded', { middleware: [guard] }, () => ({ ok: true })),
    get('/admin', { middleware: [guard, authorize(() => false)] }, () => ({ ok: true })),
    get('/limited', { middleware: [rateLimit({ max: 1, windowMs: 60_000 })] }, () => 1),
    get(
      '/slow',
      { timeoutMs: 20 },
      (c) => new Promise((r) => c.signal.addEventListener('abort', r)),
    ),
    get('/broken', () => {
      throw new Error('a bug');
    }),
    get('/taken', () => {
      throw conflict('taken');
    }),
    get('/down', () => {
      throw serviceUnavailable('the queue is down');
    }),
    post('/once', { middleware: [once], body: z.object({ n: z.number() }) }, async (c) => {
      if (c.body.n === 0) await held;
      return c.body;
    }),
    post('/upload', { body: multipart({ doc: file({ maxBytes: 8 }) }) }, () => ({ ok: true })),
    ws('/socket', { onMessage() {} }),
  );
  doc = await app.openapi();
});

afterAll(async () => {
  release();
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

type Inject = Parameters<App['inject']>[0];
const json = (url: string, payload: string, headers: Record<string, string> = {}): Inject => ({
  method: 'POST',
  url,
  payload,
  headers: { 'content-type': 'application/json', ...headers },
});
const form = (body: string): Inject => ({
  method: 'POST',
  url: '/upload',
  payload: body,
  headers: { 'content-type': 'multipart/form-data; boundary=XX' },
});

/** One request per code: [the code, the operation (method and document path), the request]. */
const CASES: readonly [KeelsonErrorCode, string | undefined, Inject][] = [
  ['NOT_FOUND', undefined, '/nowhere'],
  ['METHOD_NOT_ALLOWED', undefined, { method: 'DELETE', url: '/plain' }],
  ['MALFORMED_JSON', 'post /things', json('/things', '{"n":')],
  ['VALIDATION_FAILED', 'post /things', json('/things', '{"n":"one"}')],
  ['PAYLOAD_TOO_LARGE', 'post /things', json('/things', `{"n":1,"pad":"${'x'.repeat(100)}"}`)],
  [
    'UNSUPPORTED_MEDIA_TYPE',
    'post /things',
    { method: 'POST', url: '/things', payload: '<n/>', headers: { 'content-type': 'text/xml' } },
  ],
  ['INVALID_CONTENT_LENGTH', 'post /things', json('/things', '{"n":1}', { 'content-length': '9' })],
  ['BAD_REQUEST', 'post /once', json('/once', '{"n":1}', { 'idempotency-key': '"unclosed' })],
  ['URI_TOO_LONG', undefined, `/item/${'x'.repeat(200)}`],
  ['UNAUTHORIZED', 'get /guarded', '/guarded'],
  ['FORBIDDEN', 'get /admin', { url: '/admin', headers: { 'x-api-key': 'good' } }],
  ['TOO_MANY_REQUESTS', 'get /limited', '/limited'],
  ['TIMEOUT', 'get /slow', '/slow'],
  ['INTERNAL', 'get /broken', '/broken'],
  ['CONFLICT', 'get /taken', '/taken'],
  ['SERVICE_UNAVAILABLE', 'get /down', '/down'],
  ['UPGRADE_REQUIRED', undefined, '/socket'],
  ['MALFORMED_MULTIPART', 'post /upload', form('--XX\r\nContent-Disposition: form-da')],
  [
    'PRECONDITION_FAILED',
    undefined,
    { url: '/files/a.txt', headers: { 'if-match': '"not-the-etag"' } },
  ],
  ['RANGE_NOT_SATISFIABLE', undefined, { url: '/files/a.txt', headers: { range: 'bytes=900-' } }],
];

/** The codes the operation's document lists for `status`; undefined when it leaves them open. */
function documented(operation: string, status: number): readonly string[] | undefined {
  const [method, path] = operation.split(' ') as [string, string];
  const responses = (doc.paths[path] as Record<string, { responses: Record<string, unknown> }>)[
    method
  ]?.responses;
  const schema = JSON.stringify(responses?.[String(status)] ?? responses?.['4XX']);
  const m = /"code":\{"type":"string","enum":(\[[^\]]*\])/.exec(schema);
  return m ? (JSON.parse(m[1]!) as string[]) : undefined;
}

describe('every catalogue code a request can reach', () => {
  const seen = new Set<string>();
  let listedByDoc = 0;

  it.each(CASES)('answers %s with its catalogue status', async (code, operation, request) => {
    // The limit lets one request through a minute: the second is the one refused.
    if (code === 'TOO_MANY_REQUESTS') expect((await app.inject(request)).statusCode).toBe(200);
    const res = await app.inject(request);
    const body = res.json() as { status: number; code: string };
    expect({ status: res.statusCode, code: body.code }).toEqual({
      status: ERROR_CATALOGUE[code].status,
      code,
    });
    expect(body.status).toBe(res.statusCode);
    expect(isKeelsonErrorCode(body.code)).toBe(true);
    if (operation !== undefined) {
      const listed = documented(operation, res.statusCode);
      if (listed !== undefined) {
        expect(listed, `${operation} ${res.statusCode}`).toContain(code);
        listedByDoc++;
      }
    }
    seen.add(code);
  });

  it('answers IDEMPOTENCY_KEY_IN_USE and IDEMPOTENCY_KEY_REUSED, each listed by the document', async () => {
    const headers = { 'idempotency-key': 'k-1' };
    const first = app.inject(json('/once', '{"n":0}', headers));
    const running = await app.inject(json('/once', '{"n":0}', headers));
    const other = await app.inject(json('/once', '{"n":2}', headers));
    release();
    expect((await first).statusCode).toBe(200);
    for (const [res, code] of [
      [running, 'IDEMPOTENCY_KEY_IN_USE'],
      [other, 'IDEMPOTENCY_KEY_REUSED'],
    ] as const) {
      expect(res.statusCode).toBe(ERROR_CATALOGUE[code].status);
      expect(res.json()).toMatchObject({ code });
      expect(documented('post /once', res.statusCode)).toContain(code);
      seen.add(code);
    }
  });

  it('leaves no code untested: each is reached above or named with the test that reaches it', () => {
    const rest = Object.keys(ERROR_CATALOGUE).filter((c) => !seen.has(c));
    // Each case whose status Keelson adds to the operation (a body's 400/413/415/422, a guard's
    // 401 and 403, a limit's 429, upload and idempotency codes) met an enum that lists it.
    expect(listedByDoc).toBe(10);
    expect(rest.sort()).toEqual(Object.keys(ONLY_ON_A_SOCKET).sort());
  });
});
