/**
 * Generated malformed requests against the routes of `badInputApp`, each with the statuses a
 * correct service may answer with. Generation is seeded: every run sends the same requests.
 * @module
 */
import type { RequestParts } from './raw-http.js';

/** One malformed request and what may come back. */
export interface MalformedCase {
  /** The class of input, for the report and for failure messages. */
  category: string;
  parts: RequestParts;
  /** Statuses a correct service may answer with; 0 = the connection closed without an answer. */
  allowed: readonly number[];
  /** Only a real socket can carry it (inject() would refuse it or normalise it away). */
  rawOnly?: boolean;
  /** Too big to send twice cheaply: sent through inject() only. */
  injectOnly?: boolean;
}

/** A small seeded PRNG (mulberry32): the same sequence on every run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const JSON_TYPE = { 'content-type': 'application/json' };
const VALID_USER = '{"name":"Ada","email":"ada@example.com","tags":["a","b"]}';

/** The answers to a JSON body: 400 when it does not parse, else created or a schema failure. */
function jsonOutcome(text: string): readonly number[] {
  // An empty body is no body: a route with a body schema answers 422 naming `body`.
  if (text === '') return [422];
  try {
    // The engine's parser skips a byte order mark, as RFC 8259 allows.
    JSON.parse(text.replace(/^\ufeff/, ''));
  } catch {
    return [400];
  }
  return [201, 422];
}

function postUser(
  category: string,
  body: Buffer | string,
  allowed?: readonly number[],
): MalformedCase {
  const buf = typeof body === 'string' ? Buffer.from(body) : body;
  return {
    category,
    parts: { method: 'POST', url: '/users', headers: JSON_TYPE, body: buf },
    allowed: allowed ?? jsonOutcome(buf.toString('utf8')),
  };
}

function brokenJson(rand: () => number, n: number): MalformedCase[] {
  const fixed = [
    '',
    '{',
    '}',
    '{"name":',
    "{'name':'a'}",
    'NaN',
    '{"name":"a",}',
    '[1,2',
    '\u0000',
    '{"name":"\\x"}',
    '{"name":01}',
    'null',
    '"just a string"',
    '{"name":"a"}{"name":"b"}',
    '{"name":"a" "email":"b"}',
    '\ufeff{"name":"a"}',
    '{"name":"\ud800"}',
    '{"a":1e999999}',
    `{"name":"${'\\u'.repeat(50)}"}`,
  ];
  const out = fixed.map((t) => postUser('broken JSON', t));
  const noise = '{}[]":,\\ \n\t0123abcxyz\u0000\u00ff\u2028';
  for (let i = out.length; i < n; i++) {
    let text = VALID_USER;
    const edits = 1 + Math.floor(rand() * 3);
    for (let e = 0; e < edits; e++) {
      const at = Math.floor(rand() * text.length);
      const ch = noise[Math.floor(rand() * noise.length)];
      const kind = rand();
      if (kind < 0.33)
        text = text.slice(0, at); // truncate
      else if (kind < 0.66)
        text = text.slice(0, at) + ch + text.slice(at); // insert
      else text = text.slice(0, at) + ch + text.slice(at + 1); // replace
    }
    out.push(postUser('broken JSON', text));
  }
  return out;
}

function wrongContentTypes(): MalformedCase[] {
  const types: [string | undefined, readonly number[]][] = [
    [undefined, [415]],
    ['text/plain', [415]], // a JSON body route takes no text
    ['text/plain; charset=utf-8', [415]],
    ['application/xml', [415]],
    ['text/html', [415]],
    ['multipart/form-data; boundary=x', [415]],
    ['application/x-www-form-urlencoded', [415]],
    ['application/octet-stream', [415]],
    ['application/jsonx', [415]],
    ['json', [415]],
    [';;;', [415]],
    ['application/json; charset=utf-16', [201, 415]],
    ['APPLICATION/JSON', [201]],
    ['application/json;;;', [201, 400, 415]],
    [`application/${'x'.repeat(4000)}`, [415]],
    ['image/png', [415]],
    ['application/problem+json', [415]],
    ['*/*', [415]],
    ['application/', [415]],
    ['/json', [415]],
  ];
  const out: MalformedCase[] = [];
  for (const [type, allowed] of types) {
    for (const body of [VALID_USER, '<user><name>a</name></user>', 'name=a&email=b']) {
      const headers: Record<string, string> = type === undefined ? {} : { 'content-type': type };
      const isJsonType = allowed.includes(201);
      out.push({
        category: 'wrong content type',
        parts: { method: 'POST', url: '/users', headers, body: Buffer.from(body) },
        allowed: isJsonType && body !== VALID_USER ? [400, 415] : allowed,
      });
    }
  }
  return out;
}

function hugeBodies(): MalformedCase[] {
  const out: MalformedCase[] = [];
  for (const size of [1_048_577, 1_200_000, 2_000_000, 4_000_000]) {
    const filler = 'x'.repeat(size);
    out.push({
      category: 'huge body',
      parts: {
        method: 'POST',
        url: '/users',
        headers: JSON_TYPE,
        body: Buffer.from(`{"name":"${filler}"}`),
      },
      // Over a socket the server may answer 413 and close while the client is still sending.
      allowed: [413, 0],
    });
  }
  // Just under the limit, but a string far longer than the schema allows.
  out.push(postUser('huge body', `{"name":"${'y'.repeat(1_000_000)}","email":"a@b.co"}`, [422]));
  return out;
}

function deeplyNested(): MalformedCase[] {
  const out: MalformedCase[] = [];
  for (const depth of [1_000, 10_000, 50_000, 100_000, 200_000]) {
    const arrays = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const objects = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    for (const inner of [arrays, objects]) {
      if (inner.length + 50 > 1_048_576) continue;
      out.push(postUser('deeply nested body', `{"name":${inner}}`, [400, 422]));
      out.push(postUser('deeply nested body', `{"tags":[${inner}]}`, [400, 422]));
      out.push(postUser('deeply nested body', inner, [400, 422]));
      // Unbalanced: opens and never closes.
      out.push(postUser('deeply nested body', inner.slice(0, inner.length / 2), [400]));
    }
  }
  return out;
}

function prototypeKeys(): MalformedCase[] {
  const poison = [
    '{"__proto__":{"polluted":"yes"},"name":"a","email":"a@b.co"}',
    '{"name":"a","email":"a@b.co","__proto__":{"polluted":"yes"}}',
    '{"constructor":{"prototype":{"polluted":"yes"}},"name":"a","email":"a@b.co"}',
    '{"tags":[{"__proto__":{"polluted":"yes"}}],"name":"a","email":"a@b.co"}',
    '{"\\u005f_proto__":{"polluted":"yes"},"name":"a","email":"a@b.co"}',
    '{"__\\u0070roto__":{"polluted":"yes"}}',
    '{"a":{"b":{"c":{"__proto__":{"polluted":"yes"}}}}}',
    '[{"__proto__":{"polluted":"yes"}}]',
    '{"constructor":{"prototype":{"toString":"x"}}}',
  ];
  const out = poison.map((t) => postUser('__proto__ / constructor keys', t, [400]));
  // Harmless look-alikes must still be judged on their content.
  for (const t of [
    '{"constructor":"x","name":"a","email":"a@b.co"}',
    '{"__proto":{},"name":"a","email":"a@b.co"}',
    '{"name":"__proto__","email":"a@b.co"}',
    '{"prototype":{"polluted":"yes"},"name":"a","email":"a@b.co"}',
  ]) {
    out.push(postUser('__proto__ / constructor keys', t, [201]));
  }
  for (const q of [
    '__proto__[polluted]=yes',
    '__proto__.polluted=yes',
    'constructor[prototype][polluted]=yes',
    '__proto__=x&limit=5',
    'limit[__proto__]=1',
    'limit=1&limit=2',
    'toString=1&hasOwnProperty=2&valueOf=3',
  ]) {
    out.push({
      category: '__proto__ / constructor keys',
      parts: { method: 'GET', url: `/users/1?${q}` },
      allowed: [200, 422],
    });
  }
  for (const name of ['__proto__', 'constructor', 'hasOwnProperty', 'toString']) {
    out.push({
      category: '__proto__ / constructor keys',
      parts: { method: 'GET', url: '/users/1', headers: { [name]: 'polluted' } },
      allowed: [200],
      rawOnly: true,
    });
  }
  return out;
}

function invalidUtf8(rand: () => number, n: number): MalformedCase[] {
  const bad = [
    [0xff],
    [0xfe],
    [0xc0, 0x80],
    [0x80],
    [0xe2, 0x82],
    [0xed, 0xa0, 0x80],
    [0xf4, 0x90, 0x80, 0x80],
    [0xf8, 0x88, 0x80, 0x80, 0x80],
  ];
  const out: MalformedCase[] = [];
  for (let i = 0; i < n; i++) {
    const seq = Buffer.from(bad[Math.floor(rand() * bad.length)]!);
    const base = Buffer.from(VALID_USER);
    const at = Math.floor(rand() * base.length);
    const body = Buffer.concat([base.subarray(0, at), seq, base.subarray(at)]);
    out.push(postUser('invalid UTF-8', body));
  }
  for (const seq of bad) {
    const bytes = Buffer.from(seq).toString('latin1');
    const pct = seq.map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
    out.push({
      category: 'invalid UTF-8',
      parts: { method: 'GET', url: `/users/${pct}` },
      allowed: [400],
    });
    out.push({
      category: 'invalid UTF-8',
      parts: { method: 'GET', url: `/users/1?limit=${pct}` },
      allowed: [200, 400, 422],
    });
    out.push({
      category: 'invalid UTF-8',
      parts: { method: 'GET', url: `/users/${bytes}` },
      allowed: [400, 404, 422],
      rawOnly: true,
    });
    out.push({
      category: 'invalid UTF-8',
      parts: { method: 'GET', url: '/users/1', headers: { 'x-name': `a${bytes}b` } },
      allowed: [200, 400],
      rawOnly: true,
    });
  }
  return out;
}

function oversized(): MalformedCase[] {
  const out: MalformedCase[] = [];
  for (const size of [17_000, 32_000, 80_000, 200_000]) {
    out.push({
      category: 'oversized headers and URLs',
      parts: { method: 'GET', url: '/users/1', headers: { 'x-big': 'h'.repeat(size) } },
      allowed: [431],
      rawOnly: true,
    });
    out.push({
      category: 'oversized headers and URLs',
      parts: { method: 'GET', url: `/users/1?limit=${'9'.repeat(size)}` },
      allowed: [431],
      rawOnly: true,
    });
    out.push({
      category: 'oversized headers and URLs',
      parts: { method: 'GET', url: `/users/${'1'.repeat(size)}` },
      allowed: [431],
      rawOnly: true,
    });
  }
  const many: Record<string, string> = {};
  for (let i = 0; i < 3_000; i++) many[`x-h${i}`] = 'v';
  out.push({
    category: 'oversized headers and URLs',
    parts: { method: 'GET', url: '/users/1', headers: many },
    allowed: [200, 431],
    rawOnly: true,
  });
  // Through inject() there is no header limit: the router and the schemas see them instead.
  for (const size of [500, 5_000, 50_000]) {
    out.push({
      category: 'oversized headers and URLs',
      parts: { method: 'GET', url: `/users/${'7'.repeat(size)}` },
      allowed: [414],
      injectOnly: true,
    });
    out.push({
      category: 'oversized headers and URLs',
      parts: { method: 'GET', url: `/users/1?limit=${'9'.repeat(size)}` },
      allowed: [422],
      injectOnly: true,
    });
  }
  return out;
}

function absurdParams(rand: () => number, n: number): MalformedCase[] {
  const fixed: [string, readonly number[]][] = [
    ['-1', [422]],
    ['0', [422]],
    ['1.5', [422]],
    ['1e309', [422]],
    ['NaN', [422]],
    ['Infinity', [422]],
    ['0x10', [200]],
    ['9007199254740993', [200, 422]],
    ['%00', [422]],
    ['%2e%2e', [404, 422]], // inject() resolves the dots, a socket does not
    ['..%2f..%2fetc%2fpasswd', [422]],
    ['%', [400]],
    ['%zz', [400]],
    ['%c0%af', [400]],
    ['%20', [422]],
    ['null', [422]],
    ['true', [422]],
    ['%7B%7D', [422]],
    ['1;DROP%20TABLE%20users', [422]],
    ['%F0%9F%92%A5', [422]],
    [`${'9'.repeat(100)}`, [422]],
    [`${'9'.repeat(101)}`, [414]],
    ['1/extra', [404]],
    ['', [404]], // an empty :id is no user path
  ];
  const out: MalformedCase[] = fixed.map(([id, allowed]) => ({
    category: 'absurd path parameters',
    parts: { method: 'GET', url: `/users/${id}` },
    allowed,
  }));
  const alphabet = 'abcXYZ019-_.~!$&()*+,;=:@%';
  for (let i = out.length; i < n; i++) {
    const len = 1 + Math.floor(rand() * 120);
    let id = '';
    for (let j = 0; j < len; j++) id += alphabet[Math.floor(rand() * alphabet.length)];
    out.push({
      category: 'absurd path parameters',
      parts: { method: 'GET', url: `/users/${id}` },
      allowed: [200, 400, 404, 414, 422],
    });
  }
  return out;
}

function unknownMethods(): MalformedCase[] {
  const out: MalformedCase[] = [];
  // Methods Node's parser knows but no route answers: the router says 404 or 405.
  for (const method of ['PROPFIND', 'MKCOL', 'PURGE', 'SEARCH', 'LOCK', 'REPORT', 'TRACE']) {
    for (const url of ['/users', '/users/1', '/nowhere']) {
      out.push({
        category: 'unknown methods',
        parts: { method, url },
        allowed: url === '/nowhere' ? [404] : [404, 405],
      });
    }
  }
  // Tokens the parser refuses before any route sees them.
  for (const method of ['FOO', 'BREW', 'get', 'G@T', '123', 'POSTX', 'GETGETGETGET', '\u00ff']) {
    out.push({
      category: 'unknown methods',
      parts: { method, url: '/users/1' },
      allowed: [400],
      rawOnly: true,
    });
  }
  // CONNECT: Node hands the socket to a 'connect' listener; with none it closes it unanswered.
  out.push({
    category: 'unknown methods',
    parts: { method: 'CONNECT', url: '127.0.0.1:1' },
    allowed: [0, 400],
    rawOnly: true,
  });
  return out;
}

/**
 * Requests that are not HTTP/1.1 at all; only a socket carries them. `bare` marks the one class
 * Node's HTTP server answers itself with an empty 400, never reaching the engine's handlers.
 */
export const PROTOCOL_GARBAGE: readonly {
  name: string;
  bytes: Buffer;
  allowed: number[];
  bare: boolean;
}[] = [
  ['HTTP version 9.9', 'GET /users/1 HTTP/9.9\r\nHost: a\r\n\r\n', [400, 505]],
  ['HTTP/0.9 request line', 'GET /users/1\r\n\r\n', [200, 400]],
  ['header without a colon', 'GET /users/1 HTTP/1.1\r\nHost: a\r\nnocolon\r\n\r\n', [400]],
  ['space before colon', 'GET /users/1 HTTP/1.1\r\nHost : a\r\n\r\n', [400]],
  ['NUL in a header', 'GET /users/1 HTTP/1.1\r\nHost: a\r\nX: a\u0000b\r\n\r\n', [400]],
  [
    'Content-Length and Transfer-Encoding',
    'POST /users HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    [400],
  ],
  [
    'two Content-Lengths',
    'POST /users HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!',
    [400],
  ],
  [
    'negative Content-Length',
    'POST /users HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n',
    [400],
  ],
  [
    'bad chunk size',
    'POST /users HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
    [400],
  ],
  [
    'chunked with an unknown coding first',
    'POST /users HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n',
    [400, 415, 501],
  ],
  ['bare LF line endings', 'GET /users/1 HTTP/1.1\nHost: a\n\n', [200, 400]],
  // Node answers this itself, before the engine sees it: a bare 400 with no body.
  ['no Host header', 'GET /users/1 HTTP/1.1\r\n\r\n', [400], 'bare'],
  ['control bytes in the URL', 'GET /users/\u0001\u0002 HTTP/1.1\r\nHost: a\r\n\r\n', [400]],
  ['spaces in the URL', 'GET /users/1 2 3 HTTP/1.1\r\nHost: a\r\n\r\n', [400]],
  [
    'TLS hello on a plain port',
    '\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\u0003\u0003',
    [400],
  ],
  ['random bytes', 'q9\u0000\u00ff\r\n\r\n\u0001\u0002', [400]],
  ['empty line then nothing', '\r\n\r\n', [0, 400]],
].map(([name, text, allowed, bare]) => ({
  name: name as string,
  bytes: Buffer.from(text as string, 'latin1'),
  allowed: allowed as number[],
  bare: bare === 'bare',
}));

/** Every generated malformed request, about 1,100 of them. */
export function malformedCases(seed = 6): MalformedCase[] {
  const rand = seeded(seed);
  return [
    ...brokenJson(rand, 400),
    ...wrongContentTypes(),
    ...hugeBodies(),
    ...deeplyNested(),
    ...prototypeKeys(),
    ...invalidUtf8(rand, 200),
    ...oversized(),
    ...absurdParams(rand, 300),
    ...unknownMethods(),
  ];
}
