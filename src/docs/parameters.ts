/**
 * Path, query, header and cookie parameters from a route's object schemas.
 * @module
 */
import type { SchemaRef } from './components.js';
import type { PathParam, PathVariant } from './paths.js';
import type { JsonSchema, ParameterObject } from './types.js';

/** Headers OpenAPI ignores as parameters: content negotiation and security schemes describe them. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/** The schema parts a route declares for its parameters. */
export interface ParameterParts {
  readonly params: SchemaRef | undefined;
  readonly query: SchemaRef | undefined;
  readonly headers: SchemaRef | undefined;
  readonly cookies?: SchemaRef | undefined;
}

function shapeOf(ref: SchemaRef) {
  const shape = ref.objectShape();
  if (!shape) {
    throw new Error(
      `${ref.part} must describe an object with properties (e.g. z.object({...})) to become parameters`,
    );
  }
  return shape;
}

function parameter(
  name: string,
  where: ParameterObject['in'],
  required: boolean,
  schema: JsonSchema,
): ParameterObject {
  const { description, deprecated, ...rest } = schema;
  const p = { name, in: where, required } as ParameterObject;
  if (typeof description === 'string') p.description = description;
  if (deprecated === true) p.deprecated = true;
  p.schema = rest;
  return p;
}

/**
 * The parameters of an operation on one of its paths: every parameter of the path (typed by the
 * params schema when it has the property, else a string; a regex constraint as `pattern`), then
 * the query's, the headers' and the cookies' properties. Throws on an `accept`, `content-type` or
 * `authorization` header: OpenAPI ignores those as parameters, so the document would not say
 * the route needs them.
 */
export function parametersOf(
  where: string,
  all: readonly PathParam[],
  variant: PathVariant,
  parts: ParameterParts,
): ParameterObject[] {
  const out: ParameterObject[] = [];
  const params = parts.params && shapeOf(parts.params);
  for (const name of Object.keys(params?.properties ?? {})) {
    if (!all.some((p) => p.key === name)) {
      throw new Error(
        `${where}: the params schema has "${name}", which is not a parameter of the path`,
      );
    }
  }
  for (const p of variant.params) {
    const schema = { ...(params?.properties[p.key] ?? { type: 'string' }) };
    if (p.pattern && schema.pattern === undefined) schema.pattern = p.pattern;
    out.push(parameter(p.name, 'path', true, schema));
  }
  for (const [location, ref] of [
    ['query', parts.query],
    ['header', parts.headers],
    ['cookie', parts.cookies],
  ] as const) {
    if (!ref) continue;
    const { properties, required } = shapeOf(ref);
    for (const [name, schema] of Object.entries(properties)) {
      if (location === 'header' && IGNORED_HEADERS.has(name.toLowerCase())) {
        throw new Error(
          `${where}: the headers schema has "${name}", which OpenAPI does not document as a parameter; ${
            name.toLowerCase() === 'authorization'
              ? "declare a security scheme (docs.securitySchemes or describeMiddleware) and the route's security instead"
              : "the request body's media type and the responses say it"
          }, and read it from c.request.headers`,
        );
      }
      out.push(parameter(name, location, required.includes(name), schema));
    }
  }
  return out;
}
