/**
 * One route of the table → one OpenAPI operation.
 * @module
 */
import type { ResolvedDocsConfig } from '../config/index.js';
import { PROBLEM_CONTENT_TYPE, statusTitle } from '../errors/index.js';
import { isErrorStatus } from '../errors/status.js';
import { mediaTypeOf } from '../routing/media-type.js';
import type { RouteEntry } from '../routing/table.js';
import type { Schema } from '../routing/types.js';
import type { SchemaRef, SchemaRegistry } from './components.js';
import { acceptsUndefined } from './json-schema.js';
import { defaultOperationId, pathParamNames } from './operation-id.js';
import { parametersOf } from './parameters.js';
import { PROBLEM_COMPONENT } from './problem-schema.js';
import type { OperationObject, ResponseObject } from './types.js';

/** Statuses whose responses carry no body. */
const NO_BODY = new Set([204, 205, 304]);
const JSON_TYPE = 'application/json';

/** What the builder needs besides the route. */
export interface OperationContext {
  readonly registry: SchemaRegistry;
  readonly docs: ResolvedDocsConfig;
}

/** A route's operation, its schemas converted; `build()` runs once the registry has finished. */
export interface PlannedOperation {
  readonly entry: RouteEntry;
  readonly operationId: string;
  build(): OperationObject;
}

/** `route GET /users/:id (UsersController)`: how messages name a route. */
export function describeRoute(entry: RouteEntry): string {
  return `route ${entry.method} ${entry.path} (${entry.origin})`;
}

function pascal(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Converts the route's schemas now and returns how to build its operation later. */
export function planOperation(entry: RouteEntry, ctx: OperationContext): PlannedOperation {
  const where = describeRoute(entry);
  const o = entry.def.options;
  const operationId = o.operationId ?? defaultOperationId(entry.method, entry.path);
  const base = pascal(operationId.replace(/[^A-Za-z0-9._-]/g, ''));
  // `name` ends the made-up component names of the part's schemas without an id.
  const add = (schema: Schema | undefined, side: 'input' | 'output', part: string, name: string) =>
    schema === undefined
      ? undefined
      : ctx.registry.add(schema, side, `${where}: the ${part} schema`, base + name);

  const params = add(o.params, 'input', 'params', 'Params');
  const query = add(o.query, 'input', 'query', 'Query');
  const headers = add(o.headers, 'input', 'headers', 'Headers');
  const cookies = add(o.cookies, 'input', 'cookies', 'Cookies');
  const body = add(o.body, 'input', 'body', 'Body');
  const declared = Object.keys(o.responses ?? {})
    .map(Number)
    .sort((a, b) => a - b);
  const responses = new Map<number, SchemaRef | undefined>();
  for (const status of declared) {
    const hasBody = !NO_BODY.has(status) && entry.method !== 'HEAD';
    const schema = o.responses?.[status];
    responses.set(
      status,
      hasBody ? add(schema, 'output', `${status} response`, `Response${status}`) : undefined,
    );
  }
  const errors = o.errors ?? [];
  for (const status of errors) {
    if (!isErrorStatus(status)) {
      throw new Error(`${where}: errors must list statuses in 400..599, got ${String(status)}`);
    }
  }
  const security = checkSecurity(where, o.security, ctx.docs);
  const validates = [o.params, o.query, o.headers, o.cookies, o.body].some((s) => s !== undefined);

  return {
    entry,
    operationId,
    build(): OperationObject {
      // Keys in the order a reader of the document expects them.
      const op = { operationId } as OperationObject;
      if (o.summary) op.summary = o.summary;
      if (o.description) op.description = o.description;
      if (o.tags?.length) op.tags = [...o.tags];
      if (o.deprecated) op.deprecated = true;
      const parameters = parametersOf(where, pathParamNames(entry.path), {
        params,
        query,
        headers,
        cookies,
      });
      if (parameters.length) op.parameters = parameters;
      if (body && o.body) {
        op.requestBody = {
          required: !acceptsUndefined(o.body),
          content: { [mediaTypeOf(o.body) ?? JSON_TYPE]: { schema: body.schema() } },
        };
      }
      op.responses = responsesOf(entry, responses, validates, errors);
      if (security) op.security = security;
      return op;
    },
  };
}

function responsesOf(
  entry: RouteEntry,
  declared: ReadonlyMap<number, SchemaRef | undefined>,
  validates: boolean,
  errors: readonly number[],
): Record<string, ResponseObject> {
  const out: Record<string, ResponseObject> = {};
  for (const [status, ref] of declared) {
    const r: ResponseObject = { description: statusTitle(status) };
    const type = mediaTypeOf(entry.def.options.responses?.[status]) ?? JSON_TYPE;
    if (ref) r.content = { [type]: { schema: ref.schema() } };
    out[status] = r;
  }
  // A route that declares no success still answers one, with whatever JSON it returns.
  if (![...declared.keys()].some((s) => s < 400)) {
    out['200'] =
      entry.method === 'HEAD'
        ? { description: 'OK' }
        : { description: 'OK', content: { [JSON_TYPE]: { schema: {} } } };
  }
  const problems = new Set([...(validates ? [422] : []), ...errors, 500]);
  for (const status of [...problems].sort((a, b) => a - b)) {
    if (declared.has(status)) continue;
    out[status] = {
      description: statusTitle(status),
      content: {
        [PROBLEM_CONTENT_TYPE]: { schema: { $ref: `#/components/schemas/${PROBLEM_COMPONENT}` } },
      },
    };
  }
  return out;
}

function checkSecurity(
  where: string,
  security: readonly Record<string, string[]>[] | undefined,
  docs: ResolvedDocsConfig,
): Record<string, string[]>[] | undefined {
  if (security === undefined) return undefined;
  const schemes = docs.securitySchemes ?? {};
  const declared = Object.keys(schemes);
  return security.map((requirement) => {
    const out: Record<string, string[]> = {};
    for (const [name, scopes] of Object.entries(requirement)) {
      const scheme = schemes[name];
      if (!scheme) {
        throw new Error(
          `${where}: security names the scheme "${name}", which docs.securitySchemes does not declare (declared: ${declared.length ? declared.join(', ') : 'none'})`,
        );
      }
      if (scheme.type === 'oauth2') {
        const known = new Set(Object.values(scheme.flows).flatMap((f) => Object.keys(f.scopes)));
        for (const scope of scopes) {
          if (!known.has(scope)) {
            throw new Error(
              `${where}: security asks the scheme "${name}" for the scope "${scope}", which none of its flows declares`,
            );
          }
        }
      }
      out[name] = [...scopes];
    }
    return out;
  });
}
