/**
 * What the engine parses is not always what a schema expects: `?tag=a` is a string where the
 * schema wants `['a']`, and header names arrive in lower case where the schema may declare
 * `X-Api-Version`. Worked out once per route from the schema's JSON Schema; a route whose
 * schemas need no reshaping pays nothing.
 * @module
 */
import type { Schema } from './schema-types.js';

/** Reshapes a raw request part before its schema validates it. */
export type Prepare = (raw: unknown) => unknown;

/** The JSON Schema of what a schema accepts, or undefined when its library gives none. */
function inputJsonSchema(schema: Schema): Record<string, unknown> | undefined {
  const std = schema['~standard'] as Schema['~standard'] & {
    jsonSchema?: { input(options: { target: string }): Record<string, unknown> };
  };
  try {
    return std.jsonSchema?.input({ target: 'draft-07' });
  } catch {
    return undefined;
  }
}

function propertiesOf(schema: Schema): Record<string, unknown> | undefined {
  const json = inputJsonSchema(schema);
  const properties = json?.properties;
  return typeof properties === 'object' && properties !== null
    ? (properties as Record<string, unknown>)
    : undefined;
}

/** The JSON types a property schema accepts, through anyOf/oneOf/allOf. */
function typesOf(schema: unknown, out = new Set<string>()): Set<string> {
  if (typeof schema !== 'object' || schema === null) return out;
  const s = schema as Record<string, unknown>;
  if (typeof s.type === 'string') out.add(s.type);
  else if (Array.isArray(s.type)) for (const t of s.type) out.add(String(t));
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const members = s[key];
    if (Array.isArray(members)) for (const m of members) typesOf(m, out);
  }
  return out;
}

/**
 * The query's reshaping: a parameter the schema takes as an array only gets a lone value
 * wrapped (`?tag=a` → `['a']`).
 * @throws Error when a parameter is an object: a query string has no objects.
 */
export function queryShape(schema: Schema): Prepare | undefined {
  const properties = propertiesOf(schema);
  if (!properties) return undefined;
  const arrays: string[] = [];
  for (const [name, property] of Object.entries(properties)) {
    const types = typesOf(property);
    if (types.has('string')) continue;
    if (types.has('object')) {
      throw new Error(
        `the query parameter ${JSON.stringify(name)} is an object, which a query string cannot carry: declare one parameter per field (e.g. ${JSON.stringify(`${name}Id`)}) or take a JSON body`,
      );
    }
    if (types.has('array')) arrays.push(name);
  }
  if (arrays.length === 0) return undefined;
  return function wrapLoneValues(raw) {
    const query = raw as Record<string, unknown>;
    for (let i = 0; i < arrays.length; i++) {
      const value = query[arrays[i]!];
      if (typeof value === 'string') query[arrays[i]!] = [value];
    }
    return query;
  };
}

/** The headers' reshaping: names the schema declares in mixed case get the lower-case value. */
export function headerShape(schema: Schema): Prepare | undefined {
  const properties = propertiesOf(schema);
  if (!properties) return undefined;
  const pairs = Object.keys(properties)
    .filter((name) => name !== name.toLowerCase())
    .map((name) => [name, name.toLowerCase()] as const);
  if (pairs.length === 0) return undefined;
  return function matchHeaderCase(raw) {
    const headers = raw as Record<string, unknown>;
    const shaped: Record<string, unknown> = { ...headers };
    for (let i = 0; i < pairs.length; i++) {
      const [declared, lower] = pairs[i]!;
      shaped[declared] = headers[lower];
    }
    return shaped;
  };
}
