/**
 * One route of the table → its OpenAPI operations (one per path it answers on).
 * @module
 */
import type { DocsSecurityScheme, ResolvedDocsConfig } from '../config/index.js';
import { isErrorStatus } from '../errors/status.js';
import { checkDeprecation, effectiveDeprecation } from '../routing/deprecation.js';
import { mediaTypeOf } from '../routing/media-type.js';
import type { RouteEntry } from '../routing/table.js';
import type {
  HttpMethod,
  Middleware,
  Responses,
  Schema,
  SecurityRequirement,
} from '../routing/types.js';
import type { SchemaRef, SchemaRegistry } from './components.js';
import { acceptsUndefined } from './json-schema.js';
import { addHeaderParameters, allOf, contributionOf, middlewareAround } from './middleware.js';
import { defaultOperationId } from './operation-id.js';
import { parametersOf } from './parameters.js';
import { type PathVariant, pathVariants } from './paths.js';
import { responseMedia } from './response-media.js';
import { type ErrorBody, type MiddlewareResponse, NO_BODY, responsesOf } from './responses.js';
import type { OperationObject } from './types.js';

const JSON_TYPE = 'application/json';

/** What the builder needs besides the route. */
export interface OperationContext {
  readonly registry: SchemaRegistry;
  readonly docs: ResolvedDocsConfig;
  /** The body of every error answer. */
  readonly errorBody: ErrorBody;
  /** The app-level middleware (not run on builtin routes). */
  readonly appMiddleware: readonly Middleware[];
  /** Every security scheme of the document, configured or declared by middleware. */
  readonly schemes: Readonly<Record<string, DocsSecurityScheme>>;
}

/** A route's operations, its schemas converted; `build()` runs once the registry has finished. */
export interface PlannedOperation {
  readonly entry: RouteEntry;
  /** `options.operationId`, or one made from the method and path. */
  readonly operationId: string;
  /** True when the route set its operationId itself. */
  readonly explicitId: boolean;
  /** The OpenAPI paths the route answers on. */
  readonly variants: readonly PathVariant[];
  /** The operation on one of the paths; `HEAD` for the one the engine derives from a GET. */
  build(variant: PathVariant, method?: 'HEAD'): OperationObject;
}

/** `route GET /users/:id (UsersController)`: how messages name a route. */
export function describeRoute(entry: RouteEntry): string {
  return `route ${entry.method} ${entry.path} (${entry.origin})`;
}

function pascal(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Converts the route's schemas now and returns how to build its operations later. */
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
  const declared = new Map<number, SchemaRef | undefined>();
  for (const status of Object.keys(o.responses ?? {})
    .map(Number)
    .sort((a, b) => a - b)) {
    // A 204 takes z.undefined(), z.void(), z.null() or anything: it is sent without a body.
    const hasBody = !NO_BODY.has(status) && entry.method !== 'HEAD';
    const schema = o.responses?.[status];
    declared.set(
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
  const around = contributionOf(middlewareAround(entry, ctx.appMiddleware), entry.method);
  const middleware = new Map<number, MiddlewareResponse>();
  for (const [status, r] of around.responses) {
    middleware.set(status, {
      description: r.description,
      ref: r.schema && add(r.schema, 'output', `middleware ${status} response`, `Mw${status}`),
      headers: r.headers,
      codes: around.codes.get(status) ?? null,
    });
  }
  const security = allOf([...(o.security ? [o.security] : []), ...around.security]);
  if (security) checkSecurity(where, security, ctx.schemes);
  // Keelson's own routes (health) run outside the app's middleware: the root security is not theirs.
  const effective = security ?? (entry.builtin ? undefined : ctx.docs.security);
  const media = responseMedia(where, o.media?.responses);
  const setCookies = responseCookies(where, o.responseCookies);
  const validates = [o.params, o.query, o.headers, o.cookies, o.body].some((s) => s !== undefined);
  const uploads = (o.media?.body ?? mediaTypeOf(o.body)) === 'multipart/form-data';
  const variants = pathVariants(entry.path);
  const deprecated = effectiveDeprecation(checkDeprecation(o.deprecated, where), entry.scope);

  return {
    entry,
    operationId,
    explicitId: o.operationId !== undefined,
    variants,
    build(variant, method = entry.method as 'HEAD'): OperationObject {
      const verb: HttpMethod = method;
      // Keys in the order a reader of the document expects them.
      const op = { operationId } as OperationObject;
      if (o.summary) op.summary = o.summary;
      if (o.description) op.description = o.description;
      if (o.tags?.length) op.tags = [...o.tags];
      if (deprecated) op.deprecated = true;
      const parameters = parametersOf(where, variants[0]!.params, variant, {
        params,
        query,
        headers,
        cookies,
      });
      addHeaderParameters(parameters, around.requestHeaders);
      if (parameters.length) op.parameters = parameters;
      if (body && o.body && verb !== 'HEAD') {
        const example = o.examples?.body;
        op.requestBody = {
          required: !acceptsUndefined(o.body),
          content: {
            [o.media?.body ?? mediaTypeOf(o.body) ?? JSON_TYPE]: {
              schema: body.schema(),
              ...(example === undefined ? {} : { example }),
            },
          },
        };
      }
      op.responses = responsesOf({
        method: verb,
        declared,
        errors,
        validates,
        uploads,
        secured: effective?.some((r) => Object.keys(r).length > 0) ?? false,
        middleware,
        media,
        marked: markedMedia(o.responses),
        examples: o.examples?.responses ?? {},
        errorBody: ctx.errorBody,
        everyHeaders: around.headers,
        cookies: setCookies,
      });
      if (security) op.security = security;
      return op;
    },
  };
}

/** Throws, naming `where`, when a requirement names an undeclared scheme or scope. */
export function checkSecurity(
  where: string,
  security: readonly SecurityRequirement[],
  schemes: Readonly<Record<string, DocsSecurityScheme>>,
): void {
  const declared = Object.keys(schemes);
  for (const requirement of security) {
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
    }
  }
}

/** A cookie name: an HTTP token (RFC 6265). */
const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The route's `responseCookies`, checked; throws naming `where` on a bad name. */
function responseCookies(where: string, names: readonly string[] | undefined): readonly string[] {
  if (names === undefined) return [];
  if (!Array.isArray(names) || !names.every((n) => typeof n === 'string' && COOKIE_NAME.test(n))) {
    throw new Error(
      `${where}: responseCookies must list cookie names, got ${JSON.stringify(names)}`,
    );
  }
  return names;
}

/** The media types the route's response schemas are marked with, by status. */
function markedMedia(responses: Responses | undefined): Record<number, string> {
  const out: Record<number, string> = {};
  for (const [status, schema] of Object.entries(responses ?? {})) {
    const type = mediaTypeOf(schema);
    if (type) out[Number(status)] = type;
  }
  return out;
}
