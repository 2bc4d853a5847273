/**
 * Middleware before the body. A route with middleware that is sent a body starts its chain in
 * the engine's `preParsing` step, before a byte of the body is read: a guard or a rate limit
 * refuses an upload or a large JSON body without receiving it, as Fastify's `onRequest` hooks
 * and Hono's or NestJS's guards do. When the chain reaches the endpoint, the engine reads and
 * parses the body, and the endpoint goes on in the route's handler step. A request without a
 * body runs its chain in the handler step, as a route without middleware does.
 * @module
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { markCutOff } from '../request/cut-off.js';
import type { Endpoint } from './compose.js';
import type { Context } from './context.js';

/** What the route gives: how its requests begin, run and are answered. */
export interface RouteSteps {
  /** Makes the request's context; throws the 404 of an empty path parameter. */
  begin(request: FastifyRequest, reply: FastifyReply): Context;
  /** Runs the composed chain (its span, its timeout) on a context. */
  run(c: Context): unknown;
  /** What the chain's result becomes: the reply when already sent, else what to send. */
  finish(reply: FastifyReply, result: unknown): unknown;
  /** A failure of the chain: throws it while it can still be answered, else logs it. */
  fail(reply: FastifyReply, err: unknown): unknown;
}

/** The engine's `done` of a `preParsing` hook. */
type Done = (err: Error | null) => void;

/** Why an endpoint waiting for its body stops waiting: the answer went out without it. */
const ABANDONED = new Error('the request was answered before its body was parsed');

/** One request whose chain started before its body: where it stands. */
interface Waiting {
  /** The chain's outcome, from its start. */
  outcome: Promise<unknown>;
  /** True once the chain reached the endpoint (the engine then reads the body). */
  reached: boolean;
  /** Lets the endpoint go on: the body is parsed. */
  open: (() => void) | undefined;
  /** Stops the endpoint: the answer went out before the body was parsed. */
  abandon: ((err: Error) => void) | undefined;
  /** The body, parsed for a middleware that asked for it before the endpoint (`bodyRead`). */
  read: Promise<void> | undefined;
  /** The engine's `done` of the preParsing step: called to read the body. */
  readonly done: Done;
}

const waiting = new WeakMap<FastifyRequest, Waiting>();

function hasBody(request: FastifyRequest): boolean {
  const headers = request.headers;
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && length !== '0';
}

/**
 * Wraps the endpoint of a route whose middleware runs before its body: when the chain started
 * before the body, it waits for the handler step, then refreshes `c.body` and goes on.
 */
export function afterBody(endpoint: Endpoint): Endpoint {
  return function endpointAfterBody(c: Context): unknown {
    const w = waiting.get(c.request);
    if (w === undefined) {
      const read = c.request.keelsonReadBody;
      if (read === null || read === undefined) return endpoint(c);
      return read().then(() => {
        c.body = c.request.body as never;
        return endpoint(c);
      });
    }
    return (w.read ?? reach(w, c)).then(() => {
      // Answered meanwhile (the route's timeout): the handler has nothing left to answer.
      if (c.reply.sent) return c.reply;
      c.body = c.request.body as never;
      return endpoint(c);
    });
  };
}

/**
 * For a middleware that needs the request's body before it calls `next()` (idempotency
 * fingerprints it): resolves once the engine has parsed it into `c.body` (not validated yet).
 * The middleware outside has run by then, so a guard still refuses a body before it is read.
 */
export function bodyRead(c: Context): Promise<void> {
  const w = waiting.get(c.request);
  if (w === undefined) {
    // An engine that reads bodies itself (the Bun engine) reads it now; else parsed already.
    const read = c.request.keelsonReadBody;
    if (read === null || read === undefined) return Promise.resolve();
    return read().then(() => {
      c.body = c.request.body as never;
    });
  }
  w.read ??= reach(w, c).then(() => {
    c.body = c.request.body as never;
  });
  return w.read;
}

function reach(w: Waiting, c: Context): Promise<void> {
  w.reached = true;
  const opened = new Promise<void>((resolve, reject) => {
    w.open = resolve;
    w.abandon = reject;
  });
  // The answer may go out without the handler step (a body the parser refuses, a timeout, a
  // client that leaves): the chain must not wait for ever.
  c.reply.raw.once('close', () => w.abandon?.(ABANDONED));
  w.done(null);
  return opened;
}

/** The route's `preParsing` hook: starts the chain of a request that carries a body. */
export function middlewareFirst(steps: RouteSteps) {
  return function runMiddlewareFirst(
    request: FastifyRequest,
    reply: FastifyReply,
    _payload: unknown,
    done: Done,
  ): void {
    if (!hasBody(request)) {
      done(null);
      return;
    }
    let c: Context;
    try {
      c = steps.begin(request, reply);
    } catch (err) {
      done(err as Error);
      return;
    }
    // The outcome exists before the chain starts: a chain that reaches the endpoint at once
    // gets the body parsed, and the handler step run, before steps.run returns.
    let settle: (value: unknown) => void = () => {};
    const w: Waiting = {
      outcome: new Promise((resolve) => {
        settle = resolve;
      }),
      reached: false,
      open: undefined,
      abandon: undefined,
      read: undefined,
      done,
    };
    waiting.set(request, w);
    try {
      settle(steps.run(c));
    } catch (err) {
      settle(Promise.reject(err));
    }
    // Settled before the endpoint: the middleware answered, the body is never read.
    w.outcome.then(
      (result) => {
        if (!w.reached) answerEarly(steps, reply, result, done);
      },
      (err: unknown) => {
        if (!w.reached) failEarly(steps, reply, err, done);
      },
    );
  };
}

function answerEarly(steps: RouteSteps, reply: FastifyReply, result: unknown, done: Done): void {
  let value: unknown;
  try {
    value = steps.finish(reply, result);
  } catch (err) {
    failEarly(steps, reply, err, done);
    return;
  }
  if (value === reply) return;
  if (value instanceof Promise) {
    value.then(
      (v: unknown) => reply.send(v),
      (err: unknown) => failEarly(steps, reply, err, done),
    );
  } else {
    reply.send(value);
  }
}

function failEarly(steps: RouteSteps, reply: FastifyReply, err: unknown, done: Done): void {
  try {
    steps.fail(reply, err);
  } catch (thrown) {
    done(thrown as Error);
  }
}

/**
 * The handler step of such a route: a request whose chain started before its body goes on
 * where it waits; any other runs its chain here (`handle`).
 */
export function resumeOr(
  steps: RouteSteps,
  handle: (request: FastifyRequest, reply: FastifyReply) => unknown,
) {
  return function keelsonRouteAfterBody(request: FastifyRequest, reply: FastifyReply): unknown {
    const w = waiting.get(request);
    if (w === undefined) return handle(request, reply);
    waiting.delete(request);
    w.open?.();
    return w.outcome.then(
      (result) => steps.finish(reply, result),
      (err: unknown) => steps.fail(reply, err),
    );
  };
}

/** Why the request-log entry of a request whose client left mid-body ends early. */
const LEFT_MID_BODY = 'the client closed the connection before the end of the request body';

/**
 * A route's `onRequest` hook: a client that closes its side of the connection mid-body has left.
 * Its socket is closed at once, before the engine's parser reports the cut-short body as a
 * request of its own; the route then logs the request once, under its route, with its duration.
 */
export function watchBodyEnd(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  if (hasBody(request)) {
    const raw = request.raw;
    const socket = raw.socket;
    const onEnd = () => {
      if (!raw.complete) socket.destroy();
    };
    socket.prependOnceListener('end', onEnd);
    reply.raw.once('close', () => socket.removeListener('end', onEnd));
  }
  done();
}

/**
 * A route's `onSend` hook: an answer sent before the request's body was read in full closes the
 * connection, so the rest of the body is never read (nor parsed as another request). When the
 * client has already gone, the answer can never finish: the response is ended as failed, which
 * writes the request's one log entry, marked as cut off.
 */
export function closeUnreadBody(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (err: Error | null, payload?: unknown) => void,
): void {
  if (request.raw.complete === false) {
    reply.header('connection', 'close');
    lingerOnBody(request.raw);
    const res = reply.raw;
    // The engine ends a response on its 'error' (its onResponse hooks then run): never emit one
    // nobody listens to, which would throw.
    if (request.raw.destroyed && !res.writableFinished && res.listenerCount('error') > 0) {
      markCutOff(res, LEFT_MID_BODY);
      res.emit('error', new Error(LEFT_MID_BODY));
    }
  }
  done(null, payload);
}

/** How much of an unread body is still taken, and for how long, so its client reads the answer. */
const LINGER_BYTES = 256 * 1024;
const LINGER_MS = 1_000;

/**
 * A lingering close: the rest of a body the answer did not need is read and dropped, a little
 * and for a moment, so a client still sending it gets the answer instead of a broken pipe; past
 * either bound the connection is cut, as a large refused upload must not be read.
 */
function lingerOnBody(raw: FastifyRequest['raw']): void {
  if (raw.destroyed) return;
  let taken = 0;
  const cut = () => raw.socket?.destroy();
  const timer = setTimeout(cut, LINGER_MS);
  timer.unref();
  raw.on('data', (chunk: Buffer) => {
    taken += chunk.length;
    if (taken > LINGER_BYTES) cut();
  });
  raw.once('end', () => clearTimeout(timer));
  raw.once('close', () => clearTimeout(timer));
  raw.resume();
}
