import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { describeError } from '../errors/describe.js';
import { decodeBody, isJsonType, unsupportedMediaType } from '../request/body.js';
import { noRoute, UNMATCHED_ROUTE } from '../request/request-state.js';
import {
  afterBody,
  closeUnreadBody,
  middlewareFirst,
  type RouteSteps,
  resumeOr,
  watchBodyEnd,
} from './before-body.js';
import { bodyReaderOf } from './body-reader.js';
import { compose, type Endpoint } from './compose.js';
import { Context } from './context.js';
import { deprecatedCall } from './deprecation.js';
import { compileResponseCheck, type ResponseCheck, responseMismatch } from './response-check.js';
import { checkResponse, jsonSchemaOf } from './response-schema.js';
import type { AppRuntime } from './runtime.js';
import { describesOnly } from './static-schema.js';
import { chainOf, type RouteEntry } from './table.js';
import { checkTimeout, withTimeout } from './timeout.js';
import type { Middleware, Schema } from './types.js';
import { partsOf, validateInto } from './validate.js';

const SUCCESS_ORDER = [200, 201, 202, 203, 204, 205, 206];
const NO_BODY = new Set([204, 205, 304]);
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** One route of the table made ready for an engine: everything that does not depend on the request. */
export interface CompiledRoute {
  /** Runs the route for a request whose body (if any) is parsed; returns what to send. */
  readonly handle: (request: FastifyRequest, reply: FastifyReply) => unknown;
  /** How its requests begin, run and are answered (for a chain that starts before the body). */
  readonly steps: RouteSteps;
  /** The JSON Schema of each declared status the engine serializes with. */
  readonly serializers: Readonly<Record<string, Record<string, unknown>>>;
  /** True when middleware runs before the body is read (a body method with middleware). */
  readonly bodyLast: boolean;
  /** True for a method that carries a body. */
  readonly takesBody: boolean;
  /** True when the body reader of the route reads the raw body itself (an upload). */
  readonly readsOwnBody: boolean;
  /** True when the engine decodes a `Content-Encoding` of the body before parsing it. */
  readonly decode: boolean;
}

/**
 * Adds one route of the table to the engine. All the work that does not depend on the request
 * is done here, once: validators picked, middleware composed, response serializers compiled.
 */
export function mountRoute(
  fastify: FastifyInstance,
  entry: RouteEntry,
  runtime: AppRuntime,
  appMiddleware: readonly Middleware[],
  appTimeoutMs?: number,
): void {
  const route = compileRoute(entry, runtime, appMiddleware, appTimeoutMs);
  const { steps, bodyLast, takesBody, serializers } = route;
  const preParsing = [
    ...(bodyLast ? [middlewareFirst(steps)] : []),
    ...(route.decode ? [decodeBody] : []),
  ];
  fastify.route({
    method: entry.method,
    url: entry.path,
    ...(Object.keys(serializers).length ? { schema: { response: serializers } } : {}),
    ...(preParsing.length ? { preParsing } : {}),
    ...(takesBody || route.readsOwnBody
      ? { onRequest: watchBodyEnd, onSend: closeUnreadBody }
      : {}),
    // The app's own OPTIONS route answers OPTIONS on its path, preflights included: the CORS
    // plugin adds its headers and lets the route run instead of answering an empty 204.
    ...(entry.method === 'OPTIONS' ? { config: { cors: { preflightContinue: true } } } : {}),
    handler: bodyLast ? resumeOr(steps, route.handle) : route.handle,
  });
}

/** Compiles one route of the table: validators, middleware chain, response checks. @throws naming the route */
export function compileRoute(
  entry: RouteEntry,
  runtime: AppRuntime,
  appMiddleware: readonly Middleware[],
  appTimeoutMs?: number,
): CompiledRoute {
  const { def } = entry;
  const pattern = entry.path;
  const where = `route ${entry.method} ${pattern}`;
  let parts: ReturnType<typeof partsOf>;
  try {
    parts = partsOf(def.options);
  } catch (err) {
    throw new Error(`${where}: ${(err as Error).message}`);
  }
  const responses = def.options.responses ?? {};
  const declared = Object.keys(responses).map(Number);
  const defaultStatus = SUCCESS_ORDER.find((s) => declared.includes(s)) ?? 200;

  const serializers: Record<string, Record<string, unknown>> = {};
  const checkedByValidation = new Map<number, Schema>();
  const checks = new Map<number, ResponseCheck>();
  for (const status of declared) {
    // Sent without a body whatever its schema (z.undefined(), z.void(), z.null()).
    if (NO_BODY.has(status)) continue;
    const schema = responses[status]!;
    const json = jsonSchemaOf(schema, where, status);
    if (!json) {
      checkedByValidation.set(status, schema);
      continue;
    }
    serializers[status] = json;
    // Keelson's own routes describe what they send with schemas that do not validate.
    if (!describesOnly(schema)) checks.set(status, compileResponseCheck(json));
  }

  const handler = def.handler;
  const reader = bodyReaderOf(def.options.body);
  const bodyIsJson = def.options.body !== undefined && reader === undefined;
  const validated: Endpoint =
    parts.length === 0
      ? handler
      : (c) => {
          // The text parser read it: a JSON body route cannot take it.
          if (bodyIsJson && typeof c.body === 'string') refuseTextBody(c.request);
          const pending = validateInto(c, parts);
          return pending ? pending.then(() => handler(c)) : handler(c);
        };
  // A body the route reads itself (an upload) is read here, once the middleware let it through.
  const endpoint: Endpoint = reader
    ? (c) =>
        reader.read(c.request).then(() => {
          c.body = c.request.body;
          return validated(c);
        })
    : validated;
  const required = requiredParams(pattern);
  // Its headers go on every answer of the route, errors included: the route is what is deprecated.
  const deprecated = deprecatedCall(entry, new Date());
  const layers = chainOf(entry, appMiddleware);
  const takesBody = BODY_METHODS.has(entry.method);
  // Guards and limits refuse a body before it is read (see before-body.ts).
  const bodyLast = takesBody && layers.length > 0;
  const composed = compose(layers, bodyLast ? afterBody(endpoint) : endpoint);
  checkTimeout(def.options.timeoutMs, where);
  const timeoutMs = def.options.timeoutMs ?? (entry.builtin ? undefined : appTimeoutMs);
  const chain = timeoutMs ? withTimeout(composed, timeoutMs) : composed;

  // The tracer is fixed once the app starts; with none that can activate a span, no closure.
  const tracer = runtime.tracer;
  const withSpan = tracer.withSpan ? tracer.withSpan.bind(tracer) : undefined;

  // What the handler answered becomes the response. Returns the reply when it is already sent.
  const finish = (reply: FastifyReply, result: unknown): unknown => {
    if (reply.sent || result === reply) return reply;
    if (result === undefined) {
      if (reply.statusCode === 200) reply.code(204);
      return reply.send();
    }
    const status = reply.statusCode;
    const check = checks.size ? checks.get(status) : undefined;
    if (check) {
      const wrong = check(result);
      if (wrong !== undefined) throw responseMismatch(where, status, wrong);
    }
    const schema = checkedByValidation.size ? checkedByValidation.get(status) : undefined;
    if (schema) return checkResponse(schema, result, where).then((v) => asJson(reply, v));
    return typeof result === 'string' ? stringAnswer(reply, result) : result;
  };
  // Too late for an error answer once the response is sent: the log must still know.
  const fail = (reply: FastifyReply, err: unknown): FastifyReply => {
    if (!reply.sent) throw err;
    runtime.logger.warn('%s failed after its response was sent: %s', where, describeError(err));
    return reply;
  };

  const begin = (request: FastifyRequest, reply: FastifyReply): Context => {
    if (required && hasEmptyParam(request.params as Record<string, string>, required)) {
      request.keelsonRoute = UNMATCHED_ROUTE;
      throw noRoute(request.method, request.url);
    }
    request.keelsonRoute = pattern;
    if (deprecated) {
      reply.headers(deprecated.headers);
      request.keelsonDeprecated = deprecated.operation;
    }
    const c = new Context(request, reply, runtime);
    if (request.keelsonSpan) c.span = request.keelsonSpan;
    if (defaultStatus !== 200) reply.code(defaultStatus);
    return c;
  };
  const run = (c: Context): unknown => {
    const span = c.request.keelsonSpan;
    return withSpan && span ? withSpan(span, () => chain(c)) : chain(c);
  };
  // Synchronous while the handler and validators are: a sync handler allocates no promise.
  const handle = function keelsonRoute(request: FastifyRequest, reply: FastifyReply) {
    const c = begin(request, reply);
    let out: unknown;
    try {
      out = run(c);
    } catch (err) {
      fail(reply, err);
      return undefined;
    }
    if (isThenable(out)) {
      return out.then(
        (result) => finish(reply, result),
        (err: unknown) => fail(reply, err),
      );
    }
    const answer = finish(reply, out);
    return answer === reply ? undefined : answer;
  };
  const steps = { begin, run, finish, fail };
  // A body the route reads itself is never decoded: its reader takes the raw request.
  const decode = !entry.builtin && takesBody && !reader;
  return { handle, steps, serializers, bodyLast, takesBody, readsOwnBody: !!reader, decode };
}

// `/users/` matches `/users/:id` with an empty id: no such user path exists.
function requiredParams(pattern: string): string[] | undefined {
  const names: string[] = [];
  for (const m of pattern.matchAll(/:([A-Za-z0-9_]+)(\??)/g)) if (!m[2]) names.push(m[1]!);
  return names.length ? names : undefined;
}

function hasEmptyParam(params: Record<string, string>, names: readonly string[]): boolean {
  for (let i = 0; i < names.length; i++) if (params[names[i]!] === '') return true;
  return false;
}

function refuseTextBody(request: FastifyRequest): void {
  const type = request.headers['content-type'];
  if (isJsonType(type)) return;
  throw unsupportedMediaType(
    `This route takes a JSON body (Content-Type: application/json), not ${type ?? 'an untyped body'}.`,
  );
}

function asJson(reply: FastifyReply, value: unknown): unknown {
  return typeof value === 'string' ? stringAnswer(reply, value) : value;
}

// A string is JSON like any other value, unless the handler gave another media type.
function stringAnswer(reply: FastifyReply, value: string): string {
  const type = reply.getHeader('content-type');
  if (type === undefined) {
    reply.type('application/json; charset=utf-8');
    return JSON.stringify(value);
  }
  return isJsonType(String(type)) ? JSON.stringify(value) : value;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
