import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { App, AppOptions } from '../../../src/index.js';
import { testApp } from '../../app/helpers.js';

// The same app built on both engines, the same request injected into each, their answers
// compared. Test files that use it mock `onBun()` (the Bun engine refuses Node otherwise):
//   vi.mock('../../../src/runtime.js', async (orig) => ({ ...(await orig()), onBun: () => true }))

/** The two engines. */
export const ENGINES = ['fastify', 'bun'] as const;
/** One engine's name. */
export type Engine = (typeof ENGINES)[number];

/** One engine's app and its log lines. */
export interface Side {
  readonly app: App;
  readonly lines: string[];
}

/** The same app on each engine. */
export type Twin = Record<Engine, Side>;

/** Builds the app twice, once on each engine, `setup` adding its routes. */
export function twin(options: Partial<AppOptions>, setup: (app: App) => void = () => {}): Twin {
  const make = (engine: Engine): Side => {
    const side = testApp({ ...options, engine });
    setup(side.app);
    return side;
  };
  return { fastify: make('fastify'), bun: make('bun') };
}

/** What is compared of an answer. */
export interface Seen {
  readonly status: number;
  readonly headers: Record<string, unknown>;
  readonly body: string;
}

// Transport headers light-my-request adds and a web Response has not (Bun.serve adds its own on
// the wire): the Date, keep-alive, and the length (see inject.test.ts for the length).
const TRANSPORT = new Set([
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
]);

/**
 * The comparable part of an answer: a generated request id (not the one sent) made `<id>` in
 * headers and body.
 */
export function seen(res: LightMyRequestResponse, sentId?: string): Seen {
  const headers: Record<string, unknown> = {};
  const id = res.headers['x-request-id'];
  let body = res.body;
  for (const [name, value] of Object.entries(res.headers)) {
    if (TRANSPORT.has(name)) continue;
    headers[name] = value;
  }
  if (typeof id === 'string' && id !== sentId) {
    headers['x-request-id'] = '<id>';
    body = body.split(id).join('<id>');
  }
  return { status: res.statusCode, headers, body };
}

/** The answer of each engine to the same request. */
export async function answers(
  t: Twin,
  request: InjectOptions | string,
): Promise<Record<Engine, LightMyRequestResponse>> {
  const fastify = await t.fastify.app.inject(request);
  const bun = await t.bun.app.inject(request);
  return { fastify, bun };
}

/** Injects `request` into both apps, expects the same answer; returns the Fastify engine's. */
export async function expectSame(
  t: Twin,
  request: InjectOptions | string,
): Promise<LightMyRequestResponse> {
  const res = await answers(t, request);
  const sent =
    typeof request === 'string' ? undefined : (request.headers?.['x-request-id'] as string);
  expect(seen(res.bun, sent)).toEqual(seen(res.fastify, sent));
  return res.fastify;
}

/**
 * The JSON log lines, without what differs from run to run or engine to engine (time, duration,
 * request id, the stack frames of an error: its messages are kept).
 */
export function logged(lines: readonly string[]): Record<string, unknown>[] {
  return lines.map((line) => {
    const {
      time: _t,
      duration: _d,
      requestId: _r,
      ...rest
    } = JSON.parse(line) as Record<string, unknown>;
    if (typeof rest.error === 'string') {
      rest.error = rest.error
        .split('\n')
        .filter((l) => !/^\s+at /.test(l))
        .join('\n');
    }
    return rest;
  });
}

/** Expects both apps to have logged the same lines (time, duration, request id aside). */
export function expectSameLogs(t: Twin): void {
  expect(logged(t.bun.lines)).toEqual(logged(t.fastify.lines));
}
