/**
 * Response checks: a value a handler answers must match the JSON Schema its response is
 * serialized by, or the engine's serializer would coerce it (`'false'` → `true`,
 * an object → `"[object Object]"`). Compiled once per route with ajv, the validator Fastify
 * itself uses; fields the schema does not declare are left to the serializer to strip.
 * @module
 */
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import { internal } from '../errors/index.js';

/** Checks one answer; returns undefined when it matches, else what is wrong, naming the field. */
export type ResponseCheck = (value: unknown) => string | undefined;

let shared: Ajv | undefined;

// ajv-formats is CommonJS: its default export arrives as the module object under some loaders.
const addFormats = ((addFormatsPlugin as unknown as { default?: unknown }).default ??
  addFormatsPlugin) as unknown as (ajv: Ajv) => Ajv;

function ajv(): Ajv {
  if (!shared) {
    // No coercion, no defaults, no removal: a check must never change the handler's value.
    // validateSchema off: the schemas come from the schema library's own converter, and checking
    // them against the draft's meta-schema first compiles that meta-schema, ~30 ms of startup.
    shared = new Ajv({
      strict: false,
      allErrors: false,
      coerceTypes: false,
      useDefaults: false,
      validateSchema: false,
    });
    addFormats(shared);
  }
  return shared;
}

/**
 * A check for the JSON Schema a response is serialized by, compiled now. `additionalProperties:
 * false` is dropped first: an undeclared field is stripped by the serializer, not an error.
 */
export function compileResponseCheck(jsonSchema: Record<string, unknown>): ResponseCheck {
  const known = compiled.get(jsonSchema);
  if (known) return known;
  const validate = ajv().compile(allowExtraFields(jsonSchema) as Record<string, unknown>);
  const check: ResponseCheck = function checkResponse(value) {
    if (validate(value)) return undefined;
    return describeFailure(validate.errors?.[0]);
  };
  compiled.set(jsonSchema, check);
  return check;
}

// Routes that answer with the same schema share one check: a thousand routes must not hold a
// thousand copies of the same compiled code (a bigger heap makes every garbage collection
// slower, and so every request).
const compiled = new WeakMap<object, ResponseCheck>();

/** The 500 of an answer that does not match its schema; the reason goes to the log. */
export function responseMismatch(where: string, status: number, reason: string): Error {
  return internal(
    'The response could not be produced.',
    new Error(`${where}: the ${status} response does not match its schema: ${reason}`),
  );
}

function describeFailure(error: ErrorObject | undefined): string {
  if (!error) return 'response is invalid';
  let field = 'response';
  for (const seg of error.instancePath.split('/').slice(1)) {
    field += `.${seg.replace(/~1/g, '/').replace(/~0/g, '~')}`;
  }
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty?: string }).missingProperty;
    return `${field}.${missing} is required`;
  }
  return `${field} ${error.message ?? 'is invalid'}`;
}

function allowExtraFields(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(allowExtraFields);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'additionalProperties' && value === false) continue;
    // Keys inside `properties` are field names, not keywords: copy them, recurse into values.
    out[key] = allowExtraFields(value);
  }
  return out;
}
