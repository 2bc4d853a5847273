import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { describeError } from '../errors/describe.js';
import { internal } from '../errors/index.js';
import { compose, type Endpoint } from './compose.js';
import { Context, type RequestRuntime } from './context.js';
import { middlewareOf, type RouteEntry } from './table.js';
import { checkTimeout, withTimeout } from './timeout.js';
import type { Middleware, Schema } from './types.js';
import { partsOf, validateInto } from './validate.js';

const SUCCESS_ORDER = [200, 201, 202, 203, 204, 205, 206];

/**
 * Adds one route of the table to the engine. All the work that does not depend on the request
 * is done here, once: validators picked, middleware composed, response serializers compiled.
 */
export function mountRoute(
  fastify: FastifyInstance,
  entry: RouteEntry,
  runtime: RequestRuntime,
  appMiddleware: readonly Middleware[],
  appTimeoutMs?: number,
): void {
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
  for (const status of declared) {
    const schema = responses[status]!;
    const json = jsonSchemaOf(schema, where, status);
    if (json) serializers[status] = json;
    else checkedByValidation.set(status, schema);
  }

  const handler = def.handler;
  const endpoint: Endpoint =
    parts.length === 0
      ? handler
      : (c) => {
          const pending = validateInto(c, parts);
          return pending ? pending.then(() => handler(c)) : handler(c);
        };
  // A middleware met twice (a guard on the group and in the route's guarded builder) runs once.
  const layers = new Set([
    ...(entry.builtin ? [] : appMiddleware),
    ...middlewareOf(entry.scope),
    ...(def.options.middleware ?? []),
  ]);
  const composed = compose([...layers], endpoint);
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
    const schema = checkedByValidation.size ? checkedByValidation.get(reply.statusCode) : undefined;
    return schema ? checkResponse(schema, result, where) : result;
  };
  // Too late for an error answer once the response is sent: the log must still know.
  const fail = (reply: FastifyReply, err: unknown): FastifyReply => {
    if (!reply.sent) throw err;
    runtime.logger.warn('%s failed after its response was sent: %s', where, describeError(err));
    return reply;
  };

  fastify.route({
    method: entry.method,
    url: entry.path,
    ...(Object.keys(serializers).length ? { schema: { response: serializers } } : {}),
    // Synchronous while the handler and validators are: a sync handler allocates no promise.
    handler: function keelsonRoute(request: FastifyRequest, reply: FastifyReply) {
      request.keelsonRoute = pattern;
      const c = new Context(request, reply, runtime);
      if (request.keelsonSpan) c.span = request.keelsonSpan;
      if (defaultStatus !== 200) reply.code(defaultStatus);
      let out: unknown;
      try {
        const span = request.keelsonSpan;
        out = withSpan && span ? withSpan(span, () => chain(c)) : chain(c);
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
    },
  });
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

// A schema library without a JSON Schema side cannot give the engine a serializer; validating
// the answer keeps the promise that a field not in the schema never leaves the server.
async function checkResponse(schema: Schema, value: unknown, where: string): Promise<unknown> {
  let result = schema['~standard'].validate(value);
  if (result instanceof Promise) result = await result;
  if (result.issues) {
    const first = result.issues[0]?.message ?? 'invalid';
    throw internal(
      'The response could not be produced.',
      new Error(`${where}: response does not match its schema: ${first}`),
    );
  }
  return result.value;
}

/** The JSON Schema of a response schema, or undefined when its library offers none. */
function jsonSchemaOf(
  schema: Schema,
  where: string,
  status: number,
): Record<string, unknown> | undefined {
  const std = schema?.['~standard'] as Schema['~standard'] & {
    jsonSchema?: { output(options: { target: string }): Record<string, unknown> };
  };
  if (!std || typeof std.validate !== 'function') {
    throw new Error(`${where}: the ${status} response schema is not a Standard Schema value`);
  }
  if (!std.jsonSchema) return undefined;
  try {
    return std.jsonSchema.output({ target: 'draft-07' });
  } catch (err) {
    throw new Error(
      `${where}: the ${status} response schema cannot be expressed as JSON Schema: ${(err as Error).message}`,
    );
  }
}
