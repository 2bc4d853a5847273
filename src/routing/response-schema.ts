/**
 * Response schemas as the engine uses them: the JSON Schema a serializer is compiled from (one
 * conversion per schema value), and the check of an answer whose schema library has none.
 * @module
 */
import { internal } from '../errors/index.js';
import type { Schema } from './types.js';

// A schema library without a JSON Schema side cannot give the engine a serializer; validating
// the answer keeps the promise that a field not in the schema never leaves the server.
export async function checkResponse(
  schema: Schema,
  value: unknown,
  where: string,
): Promise<unknown> {
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

// One conversion per schema value, however many routes answer with it: the routes then share
// the JSON Schema, and through it the compiled response check.
const converted = new WeakMap<object, Record<string, unknown> | undefined>();

/** The JSON Schema of a response schema, or undefined when its library offers none. */
export function jsonSchemaOf(
  schema: Schema,
  where: string,
  status: number,
): Record<string, unknown> | undefined {
  if (converted.has(schema)) return converted.get(schema);
  const json = convertSchema(schema, where, status);
  converted.set(schema, json);
  return json;
}

function convertSchema(
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
