/**
 * fast-check arbitraries from the JSON Schemas of an OpenAPI document: values a schema accepts.
 * Covers what Standard JSON Schema converters emit; a keyword it does not know is ignored here,
 * and verifyContract drops the values the schema refuses (it validates each before sending).
 * @module
 */
import type { Arbitrary } from 'fast-check';
import type { JsonSchema } from '../docs/types.js';
import type { FastCheck } from './peers.js';

/** How deep generated values nest before optional parts are left out. */
const MAX_DEPTH = 4;

/** Turns schemas into arbitraries, resolving `#/components/schemas/…` refs. */
export class Arbitraries {
  readonly #fc: FastCheck;
  readonly #components: Readonly<Record<string, JsonSchema>>;

  /** `components` are the document's `components.schemas`. */
  constructor(fc: FastCheck, components: Readonly<Record<string, JsonSchema>>) {
    this.#fc = fc;
    this.#components = components;
  }

  /** The schema a `$ref` names, or the schema itself. */
  resolve(schema: JsonSchema): JsonSchema {
    let s = schema;
    for (let i = 0; i < 32 && typeof s.$ref === 'string'; i++) {
      const name = decodeURIComponent(s.$ref.replace('#/components/schemas/', ''));
      s = this.#components[name] ?? {};
    }
    return s;
  }

  /** Values `schema` accepts. `plain` keeps strings to URL- and header-safe characters. */
  of(schema: JsonSchema, plain = false, depth = 0): Arbitrary<unknown> {
    const fc = this.#fc;
    const s = this.resolve(schema);
    if ('const' in s) return fc.constant(s.const);
    if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
    const alternatives = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
    if (Array.isArray(alternatives) && alternatives.length) {
      return fc.oneof(...alternatives.map((a) => this.of(a, plain, depth + 1)));
    }
    if (Array.isArray(s.allOf) && s.allOf.length) {
      return this.of(mergeAll((s.allOf as JsonSchema[]).map((a) => this.resolve(a))), plain, depth);
    }
    const type = s.type;
    if (Array.isArray(type)) {
      return fc.oneof(...type.map((t) => this.of({ ...s, type: t as string }, plain, depth)));
    }
    switch (type) {
      case 'string':
        return this.#string(s, plain);
      case 'integer':
      case 'number':
        return this.#number(s, type === 'integer');
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array': {
        const items = (s.prefixItems as JsonSchema[] | undefined) ?? undefined;
        if (items) return fc.tuple(...items.map((i) => this.of(i, plain, depth + 1)));
        const min = Number(s.minItems ?? 0);
        const max = depth >= MAX_DEPTH ? min : Number(s.maxItems ?? min + 3);
        return fc.array(this.of((s.items as JsonSchema) ?? {}, plain, depth + 1), {
          minLength: min,
          maxLength: max,
        });
      }
      case 'object':
        return this.#object(s, plain, depth);
      default:
        return depth >= MAX_DEPTH ? fc.constant(null) : fc.jsonValue({ maxDepth: 2 });
    }
  }

  #string(s: JsonSchema, plain: boolean): Arbitrary<unknown> {
    const fc = this.#fc;
    const min = Number(s.minLength ?? 0);
    const max = s.maxLength === undefined ? Math.max(min, 12) : Number(s.maxLength);
    const long = (v: string) => v.length >= min && v.length <= Number(s.maxLength ?? Infinity);
    const shaped = typeof s.format === 'string' ? this.#format(s.format) : undefined;
    if (typeof s.pattern === 'string') {
      // A format's usual values, when they match the pattern too (z.email() states both); else
      // strings built from the pattern itself.
      const re = regExp(s.pattern);
      const fits = (v: string) => re.test(v) && long(v);
      // The format's values when most of a probe of them fit, so the filter ends quickly.
      const probe = shaped ? fc.sample(shaped, { numRuns: 20, seed: 1 }).filter(fits).length : 0;
      return probe >= 10 ? shaped!.filter(fits) : fc.stringMatching(re).filter(long);
    }
    if (shaped) return shaped.filter(long);
    const chars = plain
      ? fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_')
      : fc.string({ minLength: 1, maxLength: 1 });
    return fc.string({ unit: chars, minLength: Math.max(min, plain ? 1 : 0), maxLength: max });
  }

  // Ordinary values of a string format (plain characters, so most patterns for it match too).
  #format(format: string): Arbitrary<string> | undefined {
    const fc = this.#fc;
    const when = fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true });
    const word = (lo: number, hi: number) =>
      fc.string({
        unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'),
        minLength: lo,
        maxLength: hi,
      });
    switch (format) {
      case 'date-time':
        return when.map((d) => d.toISOString());
      case 'date':
        return when.map((d) => d.toISOString().slice(0, 10));
      case 'email':
        return fc
          .tuple(word(1, 10), word(1, 8), fc.constantFrom('com', 'org', 'io', 'dev'))
          .map(([user, host, tld]) => `${user}@${host}.${tld}`);
      case 'uuid':
        return fc.uuid();
      case 'uri':
      case 'url':
        return fc.webUrl();
      case 'ipv4':
        return fc.ipV4();
      case 'ipv6':
        return fc.ipV6();
      case 'hostname':
        return fc.domain();
      default:
        return undefined;
    }
  }

  #number(s: JsonSchema, integer: boolean): Arbitrary<unknown> {
    const fc = this.#fc;
    const lo = s.exclusiveMinimum ?? s.minimum;
    const hi = s.exclusiveMaximum ?? s.maximum;
    let min = typeof lo === 'number' ? lo : -1e6;
    let max = typeof hi === 'number' ? hi : 1e6;
    const step = s.multipleOf;
    if (typeof step === 'number' && step > 0) {
      // Whole multiples of the step inside the bounds (an exclusive bound left out).
      let lo = Math.ceil(min / step);
      let hi = Math.floor(max / step);
      if (s.exclusiveMinimum !== undefined && lo * step <= min) lo++;
      if (s.exclusiveMaximum !== undefined && hi * step >= max) hi--;
      const k = fc.integer({ min: Math.max(lo, -(2 ** 31)), max: Math.min(hi, 2 ** 31) });
      return k.map((n) => Number((n * step).toPrecision(12)));
    }
    if (integer) {
      min = Math.ceil(s.exclusiveMinimum === undefined ? min : min + 1);
      max = Math.floor(s.exclusiveMaximum === undefined ? max : max - 1);
      return fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31) });
    }
    return fc.double({
      min,
      max,
      minExcluded: s.exclusiveMinimum !== undefined,
      maxExcluded: s.exclusiveMaximum !== undefined,
      noNaN: true,
      noDefaultInfinity: true,
    });
  }

  #object(s: JsonSchema, plain: boolean, depth: number): Arbitrary<unknown> {
    const fc = this.#fc;
    const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((s.required ?? []) as string[]);
    const model: Record<string, Arbitrary<unknown>> = {};
    for (const [name, prop] of Object.entries(properties)) {
      if (depth >= MAX_DEPTH && !required.has(name)) continue;
      model[name] = this.of(prop, plain, depth + 1);
    }
    const record = fc.record(model, { requiredKeys: [...required].filter((k) => k in model) });
    const extra = s.additionalProperties;
    if (typeof extra !== 'object' || extra === null || depth >= MAX_DEPTH) return record;
    const keys = fc.string({ minLength: 1, maxLength: 6 }).filter((k) => !(k in properties));
    return fc
      .tuple(
        record,
        fc.dictionary(keys, this.of(extra as JsonSchema, plain, depth + 1), { maxKeys: 3 }),
      )
      .map(([a, b]) => ({ ...b, ...(a as object) }));
  }
}

// The parts of an `allOf` as one schema: objects (z.intersection) keep every part's properties
// and required names; other keywords, the last part's.
function mergeAll(parts: readonly JsonSchema[]): JsonSchema {
  const merged: JsonSchema = Object.assign({}, ...parts);
  const properties = Object.assign({}, ...parts.map((p) => p.properties ?? {}));
  const required = [...new Set(parts.flatMap((p) => (p.required ?? []) as string[]))];
  if (Object.keys(properties).length) merged.properties = properties;
  if (required.length) merged.required = required;
  return merged;
}

// A pattern as JSON Schema reads it (Unicode mode), or as a plain RegExp when only that parses.
function regExp(pattern: string): RegExp {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return new RegExp(pattern);
  }
}
