// Before any speed is measured: every contender must answer the three routes with the same
// status and the same JSON, and the feature contenders must also send CORS headers, answer 422
// to bad input and write one request-log line per request.
import { deepStrictEqual } from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { type Answer, type Ask, ask } from './client.js';
import type { Contender } from './contenders.js';
import { startServer } from './server.js';

const ORIGIN = { origin: 'http://localhost:8080' };
const NEW_USER = { name: 'Ada Lovelace', email: 'ada@example.com' };

interface Expectation {
  readonly ask: Ask;
  readonly status: number;
  /** The JSON body expected, or undefined to check only the status. */
  readonly json?: unknown;
  /** Only the contenders with features are held to it. */
  readonly featuresOnly?: boolean;
}

const EXPECTATIONS: readonly Expectation[] = [
  { ask: { path: '/hello', headers: ORIGIN }, status: 200, json: { hello: 'world' } },
  {
    ask: { path: '/users/42', headers: ORIGIN },
    status: 200,
    json: { id: 42, name: 'user 42', email: 'user42@example.com' },
  },
  {
    ask: { method: 'POST', path: '/users', json: NEW_USER, headers: ORIGIN },
    status: 201,
    json: { id: 1, ...NEW_USER },
  },
  {
    ask: { method: 'POST', path: '/users', json: { name: '', email: 'not an email' } },
    status: 422,
    featuresOnly: true,
  },
  { ask: { path: '/users/abc' }, status: 422, featuresOnly: true },
  { ask: { path: '/users/0' }, status: 422, featuresOnly: true },
];

/** Lines of a request log that record a request to one of the bench routes. */
const REQUEST_LINE = /\/(hello|users)\b/;

/** Throws, naming the contender and the request, when it answers differently. */
export async function checkContender(contender: Contender, logFile: string): Promise<void> {
  const server = await startServer(contender, { logFile, cpu: undefined });
  let requests = server.probesAnswered;
  try {
    for (const expected of EXPECTATIONS) {
      if (expected.featuresOnly && !contender.features) continue;
      const answer = await ask(server.port, expected.ask);
      requests++;
      const where = `${contender.name}: ${expected.ask.method ?? 'GET'} ${expected.ask.path}`;
      assertAnswer(where, answer, expected, contender.features);
      if (contender.bunServe && answer.headers.connection !== undefined) {
        // node:http answers `Connection: close` to this client (on Bun too); Bun.serve sends none.
        throw new Error(`${where}: a Connection header: answered by node:http, not Bun.serve`);
      }
    }
  } finally {
    await server.stop();
  }
  if (!contender.features) return;
  const lines = readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((line) => REQUEST_LINE.test(line)).length;
  if (lines !== requests) {
    throw new Error(`${contender.name}: ${requests} requests but ${lines} request-log lines`);
  }
}

function assertAnswer(
  where: string,
  answer: Answer,
  expected: Expectation,
  features: boolean,
): void {
  if (answer.status !== expected.status) {
    throw new Error(
      `${where}: status ${answer.status}, expected ${expected.status}: ${answer.body}`,
    );
  }
  const type = String(answer.headers['content-type'] ?? '');
  if (!type.startsWith('application/json') && !type.startsWith('application/problem+json')) {
    throw new Error(`${where}: content-type ${type}, expected JSON`);
  }
  if (expected.json !== undefined) {
    deepStrictEqual(JSON.parse(answer.body), expected.json, `${where}: another body`);
    // Same keys in the same order: the bytes on the wire are what wrk measures.
    if (answer.body !== JSON.stringify(expected.json)) {
      throw new Error(`${where}: body ${answer.body}, expected ${JSON.stringify(expected.json)}`);
    }
  }
  if (features && expected.ask.headers && !answer.headers['access-control-allow-origin']) {
    throw new Error(`${where}: no access-control-allow-origin header`);
  }
}
