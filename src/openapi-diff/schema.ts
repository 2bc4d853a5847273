/**
 * Comparing two JSON Schemas (OpenAPI 3.1, draft 2020-12) in one direction, following `$ref`s
 * into each document's components.
 * @module
 */
import { compareBounds, compareEnums, compareTypes } from './constraints.js';
import { breaks, join, type SchemaContext, thing } from './context.js';
import { child, isObject, type Json, type Located, objectOf, resolve } from './json.js';

/**
 * Reports every change from the base schema (found at `baseAt`) to the current one (at
 * `currentAt`), under the field path `path` (`''` for the whole body or parameter).
 */
export function compareSchema(
  ctx: SchemaContext,
  baseSchema: unknown,
  baseAt: string,
  currentSchema: unknown,
  currentAt: string,
  path = '',
): void {
  const b = resolve(ctx.base, baseSchema, baseAt);
  const c = resolve(ctx.current, currentSchema, currentAt);
  if (b.ref && b.ref === c.ref && ctx.unchanged(b.ref)) return;
  if (b.ref || c.ref) {
    // One component pair is compared once per body: its changes have one location anyway.
    const pair = `${b.ref ?? b.at}|${c.ref ?? c.at}`;
    if (ctx.seen.has(pair)) return;
    ctx.seen.add(pair);
  }
  if (variantsOf(b.value) || variantsOf(c.value)) {
    compareVariants(ctx, b, c, path);
    return;
  }
  const retyped = compareTypes(ctx, b.value, c.value, c.at, path);
  compareEnums(ctx, b.value, c.value, c.at, path);
  if (!retyped) compareBounds(ctx, b.value, c.value, c.at, path);
  compareAllOf(ctx, b, c, path);
  if (hasObjectKeywords(b.value) || hasObjectKeywords(c.value)) compareObjects(ctx, b, c, path);
  if (b.value.items !== undefined || c.value.items !== undefined) {
    compareSchema(
      ctx,
      b.value.items ?? {},
      child(b.at, 'items'),
      c.value.items ?? {},
      child(c.at, 'items'),
      `${path}[]`,
    );
  }
}

function hasObjectKeywords(schema: Json): boolean {
  return 'properties' in schema || 'required' in schema || 'additionalProperties' in schema;
}

const isClosed = (schema: Json) =>
  schema.additionalProperties === false || schema.unevaluatedProperties === false;

function compareObjects(ctx: SchemaContext, b: Located, c: Located, path: string): void {
  const bp = objectOf(b.value.properties);
  const cp = objectOf(c.value.properties);
  const br = new Set(Array.isArray(b.value.required) ? b.value.required : []);
  const cr = new Set(Array.isArray(c.value.required) ? c.value.required : []);
  const names = new Set<string>([...Object.keys(bp), ...Object.keys(cp)]);
  for (const name of [...br, ...cr]) if (typeof name === 'string') names.add(name);
  const request = ctx.direction === 'request';
  for (const name of names) {
    const field = join(path, name);
    const inBase = name in bp || br.has(name);
    const inCurrent = name in cp || cr.has(name);
    const bAt = child(b.at, 'properties', name);
    const cAt = child(c.at, 'properties', name);
    if (inBase && !inCurrent) {
      // A request field nobody declares any more is ignored, unless the object is closed.
      const breaking = request ? isClosed(c.value) : true;
      const message = `${ctx.direction} field removed: ${field}${request && !breaking ? ' (now ignored)' : ''}`;
      ctx.report({ breaking, code: 'property-removed', location: bAt, message });
      continue;
    }
    if (!inBase && inCurrent) {
      const required = cr.has(name);
      ctx.report({
        breaking: request && required,
        code: 'property-added',
        location: cAt,
        message: `${required ? 'required' : 'optional'} ${ctx.direction} field added: ${field}`,
      });
      continue;
    }
    if (name in bp || name in cp)
      compareSchema(ctx, bp[name] ?? {}, bAt, cp[name] ?? {}, cAt, field);
    if (br.has(name) !== cr.has(name)) {
      const nowRequired = cr.has(name);
      ctx.report({
        breaking: breaks(ctx, nowRequired),
        code: nowRequired ? 'property-required' : 'property-optional',
        location: child(c.at, 'required'),
        message: `${ctx.direction} field made ${nowRequired ? 'required' : 'optional'}: ${field}`,
      });
    }
  }
  const ba = b.value.additionalProperties;
  const ca = c.value.additionalProperties;
  if (isObject(ba) && isObject(ca)) {
    const at = (l: Located) => child(l.at, 'additionalProperties');
    compareSchema(ctx, ba, at(b), ca, at(c), join(path, '*'));
  } else if (request && !isClosed(b.value) && isClosed(c.value)) {
    ctx.report({
      breaking: true,
      code: 'constraint-narrowed',
      location: child(c.at, 'additionalProperties'),
      message: `${thing(ctx, path)} no longer accepts other fields`,
    });
  }
}

function variantsOf(schema: Json): unknown[] | undefined {
  const list = schema.anyOf ?? schema.oneOf;
  return Array.isArray(list) ? list : undefined;
}

function signature(doc: Json, variant: unknown): string {
  if (isObject(variant) && typeof variant.$ref === 'string') return variant.$ref;
  const type = resolve(doc, variant, '#').value.type;
  return JSON.stringify(type ?? null);
}

// anyOf / oneOf: variants are paired by $ref or type, then in order; a lone schema on one side
// is one variant, so `T` → `T | null` reads as one variant added.
function compareVariants(ctx: SchemaContext, b: Located, c: Located, path: string): void {
  const keyword = (l: Located) => (Array.isArray(l.value.anyOf) ? 'anyOf' : 'oneOf');
  const listOf = (l: Located) =>
    (variantsOf(l.value) ?? [l.value]).map((schema, i) => ({
      schema,
      at: variantsOf(l.value) ? child(l.at, keyword(l), i) : l.at,
    }));
  const bl = listOf(b);
  const cl = listOf(c);
  const pairs: [number, number][] = [];
  const freeC = new Set(cl.keys());
  const freeB: number[] = [];
  bl.forEach((bv, i) => {
    const sig = signature(ctx.base, bv.schema);
    const j = [...freeC].find((k) => signature(ctx.current, cl[k]?.schema) === sig);
    if (j === undefined) freeB.push(i);
    else {
      pairs.push([i, j]);
      freeC.delete(j);
    }
  });
  for (const i of [...freeB]) {
    const j = freeC.values().next().value;
    if (j === undefined) break;
    pairs.push([i, j]);
    freeC.delete(j);
    freeB.splice(freeB.indexOf(i), 1);
  }
  for (const [i, j] of pairs) {
    const bv = bl[i];
    const cv = cl[j];
    if (bv && cv) compareSchema(ctx, bv.schema, bv.at, cv.schema, cv.at, path);
  }
  const what = thing(ctx, path);
  const name = (doc: Json, v: unknown) => {
    const sig = signature(doc, v);
    return sig.startsWith('#') ? sig.split('/').pop() : sig.replaceAll('"', '');
  };
  for (const i of freeB) {
    const v = bl[i];
    if (!v) continue;
    ctx.report({
      breaking: breaks(ctx, true),
      code: 'variant-removed',
      location: v.at,
      message: `${what} no longer ${ctx.direction === 'request' ? 'accepts' : 'sends'} ${name(ctx.base, v.schema)}`,
    });
  }
  for (const j of freeC) {
    const v = cl[j];
    if (!v) continue;
    ctx.report({
      breaking: breaks(ctx, false),
      code: 'variant-added',
      location: v.at,
      message: `${what} may now ${ctx.direction === 'request' ? 'be' : 'send'} ${name(ctx.current, v.schema)}`,
    });
  }
}

function compareAllOf(ctx: SchemaContext, b: Located, c: Located, path: string): void {
  const bl = Array.isArray(b.value.allOf) ? b.value.allOf : [];
  const cl = Array.isArray(c.value.allOf) ? c.value.allOf : [];
  for (let i = 0; i < Math.max(bl.length, cl.length); i++) {
    compareSchema(
      ctx,
      bl[i] ?? {},
      child(b.at, 'allOf', i),
      cl[i] ?? {},
      child(c.at, 'allOf', i),
      path,
    );
  }
}
