// The static half of the catalogue check: Keelson's source builds the errors it answers with
// only through the catalogue (keelsonError, catalogueProblem, the helpers), never by hand.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isKeelsonErrorCode } from '../../src/errors/index.js';
import { ROOT } from '../support/keelson-site.js';

/** Codes that are not problem codes: errors that never reach a client as they are. */
const NOT_ANSWERED = new Set([
  'CONFIG_INVALID', // ConfigError: the service does not start
  'KEELSON_DB_POOL_TIMEOUT', // mapped to SERVICE_UNAVAILABLE by src/db/errors.ts
]);
/** Hand-made statuses that are right where they are, and why. */
const ALLOWED = new Set([
  // A zlib error marked 400 as it flows into the body parser; answered BAD_REQUEST.
  'src/request/body.ts statusCode = 400',
  // The status a request cut off at shutdown is logged with; no answer is written.
  'src/lifecycle/connections.ts statusCode = 503',
  // The Bun engine's JSON parse error, marked 400 as the Fastify engine's parser marks it.
  'src/engine/bun/body.ts statusCode: 400',
  // The Bun engine's router errors, with Fastify's codes (FST_ERR_BAD_URL …), mapped by toProblem.
  'src/engine/bun/dispatch.ts statusCode: 400',
  // A Bun-engine reply's status before the route sets one.
  'src/engine/bun/reply.ts statusCode = 200',
]);
/** Codes of other libraries' errors (Fastify, Node, jose), matched or passed on, not answered. */
const FOREIGN = /^(FST_|ERR_|HPE_|E[A-Z]+$)/;

/** What in `source` (the text of `file`, a path under src/) builds an error code by hand. */
function handMadeCodes(file: string, source: string): string[] {
  const text = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const inErrors = file.startsWith('src/errors/');
  const found: string[] = [];
  const at = (index: number) => `${file}:${text.slice(0, index).split('\n').length}`;
  if (!inErrors) {
    for (const m of text.matchAll(/new KError\(/g)) found.push(`${at(m.index)} new KError(…)`);
    for (const m of text.matchAll(/\bstatusCode\s*(?::|=(?!=))\s*\d{3}\b/g)) {
      if (!ALLOWED.has(`${file} ${m[0]}`)) found.push(`${at(m.index)} ${m[0]}`);
    }
    for (const m of text.matchAll(/type\s*:\s*'about:blank'/g))
      found.push(`${at(m.index)} ${m[0]}`);
  }
  if (file === 'src/errors/catalogue.ts') return found;
  // A literal given as a code: `code: 'X'`, `code = 'X'`, `code: a ? 'X' : 'Y'` (not the
  // `code: { type: 'string' }` of a schema).
  for (const m of text.matchAll(/\bcode\s*(?::|=(?!=))\s*([^,;\n{})]+)/g)) {
    for (const lit of m[1]!.matchAll(/'([^']*)'|"([^"]*)"/g)) {
      const code = lit[1] ?? lit[2] ?? '';
      if (isKeelsonErrorCode(code) || FOREIGN.test(code) || NOT_ANSWERED.has(code)) continue;
      found.push(`${at(m.index)} code '${code}'`);
    }
  }
  // The codes a middleware documents: `codes: ['TOO_MANY_REQUESTS']`.
  for (const m of text.matchAll(/\bcodes\s*:\s*\[([^\]]*)\]/g)) {
    for (const lit of m[1]!.matchAll(/'([^']*)'/g)) {
      if (!isKeelsonErrorCode(lit[1])) found.push(`${at(m.index)} documented code '${lit[1]}'`);
    }
  }
  // A table row of status and code: `[413, 'PAYLOAD_TOO_LARGE', …]`.
  for (const m of text.matchAll(/\[\s*\d{3}\s*,\s*'([A-Z0-9_]+)'/g)) {
    if (!isKeelsonErrorCode(m[1])) found.push(`${at(m.index)} code '${m[1]}'`);
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    // keelson/openapi-diff names the changes between two documents with codes of its own.
    if (e.isDirectory()) return path.endsWith('openapi-diff') ? [] : sourceFiles(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

describe('the source builds its error codes only through the catalogue', () => {
  it('has no hand-made code, KError or problem body anywhere in src/', () => {
    const files = sourceFiles(join(ROOT, 'src'));
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((path) =>
      handMadeCodes(relative(ROOT, path), readFileSync(path, 'utf8')),
    );
    expect(found, 'build these with keelsonError() / catalogueProblem() from src/errors').toEqual(
      [],
    );
  });

  it('finds an inline code in any of the forms it takes', () => {
    const src = [
      "throw new KError({ code: 'OUT_OF_PAPER', statusCode: 507, message: 'x' });",
      "const e = Object.assign(new Error('x'), { statusCode: 418 }); e.statusCode = 400;",
      "const p = { type: 'about:blank', status: 400, code: full ? 'TOO_FULL' : 'CONFLICT' };",
      "const TABLE = { X: [409, 'CLASHED', 'detail'] };",
      'class E extends KError { constructor() { super({ code: "NEW_ONE" }); } }',
      "const docs = { 429: { codes: ['TOO_MANY_REQUESTS', 'SLOW_DOWN'] } };",
    ].join('\n');
    expect(handMadeCodes('src/http/x.ts', src)).toEqual([
      'src/http/x.ts:1 new KError(…)',
      'src/http/x.ts:1 statusCode: 507',
      'src/http/x.ts:2 statusCode: 418',
      'src/http/x.ts:2 statusCode = 400',
      "src/http/x.ts:3 type: 'about:blank'",
      "src/http/x.ts:1 code 'OUT_OF_PAPER'",
      "src/http/x.ts:3 code 'TOO_FULL'",
      "src/http/x.ts:5 code 'NEW_ONE'",
      "src/http/x.ts:6 documented code 'SLOW_DOWN'",
      "src/http/x.ts:4 code 'CLASHED'",
    ]);
  });

  it('leaves alone catalogue codes, other libraries’ codes, comparisons and comments', () => {
    const src = [
      "const m = { code: 'CONFLICT' as const };",
      "if (error.code === 'FST_ERR_BAD_URL') return;",
      "const full = code === 'ENOSPC';",
      "// throw new KError({ code: 'IN_A_COMMENT', statusCode: 400 })",
      "/** @example new KError({ code: 'OUT_OF_STOCK', statusCode: 409 }) */",
    ].join('\n');
    expect(handMadeCodes('src/db/x.ts', src)).toEqual([]);
  });
});
