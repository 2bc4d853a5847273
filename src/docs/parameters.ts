/**
 * Path, query, header and cookie parameters from a route's object schemas.
 * @module
 */
import type { SchemaRef } from './components.js';
import type { JsonSchema, ParameterObject } from './types.js';

/** Headers OpenAPI ignores as parameters: content negotiation and security describe them. */
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
 * The parameters of an operation: every `:name` of the path (typed by the params schema when it
 * has the property, else a string), then the query's, the headers' and the cookies' properties.
 */
export function parametersOf(
  where: string,
  pathNames: readonly string[],
  parts: ParameterParts,
): ParameterObject[] {
  const out: ParameterObject[] = [];
  const params = parts.params && shapeOf(parts.params);
  for (const name of Object.keys(params?.properties ?? {})) {
    if (!pathNames.includes(name)) {
      throw new Error(
        `${where}: the params schema has "${name}", which is not a parameter of the path`,
      );
    }
  }
  for (const name of pathNames) {
    out.push(parameter(name, 'path', true, params?.properties[name] ?? { type: 'string' }));
  }
  for (const [location, ref] of [
    ['query', parts.query],
    ['header', parts.headers],
    ['cookie', parts.cookies],
  ] as const) {
    if (!ref) continue;
    const { properties, required } = shapeOf(ref);
    for (const [name, schema] of Object.entries(properties)) {
      if (location === 'header' && IGNORED_HEADERS.has(name.toLowerCase())) continue;
      out.push(parameter(name, location, required.includes(name), schema));
    }
  }
  return out;
}
