/**
 * The keywords of a schema that bound its values: types, enums, lengths, ranges, patterns.
 * @module
 */
import { breaks, type SchemaContext, thing } from './context.js';
import type { Json } from './json.js';

function typesOf(schema: Json): string[] | undefined {
  const types = typeof schema.type === 'string' ? [schema.type] : schema.type;
  if (!Array.isArray(types)) return undefined;
  const list = types.filter((t): t is string => typeof t === 'string');
  // OpenAPI 3.0's `nullable: true`, in case a base document was written by hand in 3.0 style.
  return schema.nullable === true && !list.includes('null') ? [...list, 'null'] : list;
}

function covers(types: readonly string[] | undefined, type: string): boolean {
  return !types || types.includes(type) || (type === 'integer' && types.includes('number'));
}

const show = (types: readonly string[] | undefined) => (types ? types.join('|') : 'any');

/**
 * Compares `type`: a type the request no longer accepts, or the response may now send. True when
 * the type changed outright (`string` → `integer`), so the old type's bounds no longer matter.
 */
export function compareTypes(
  ctx: SchemaContext,
  b: Json,
  c: Json,
  at: string,
  path: string,
): boolean {
  const bt = typesOf(b);
  const ct = typesOf(c);
  const lost = bt ? bt.filter((t) => !covers(ct, t)) : ct ? ['any'] : [];
  const gained = ct ? ct.filter((t) => !covers(bt, t)) : bt ? ['any'] : [];
  if (lost.length === 0 && gained.length === 0) return false;
  const message = `type of ${thing(ctx, path)} ${lost.length && gained.length ? 'changed' : lost.length ? 'narrowed' : 'widened'}: ${show(bt)} → ${show(ct)}`;
  if (lost.length && gained.length) {
    ctx.report({ breaking: true, code: 'type-changed', location: `${at}/type`, message });
    return true;
  }
  const narrowed = lost.length > 0;
  const code = narrowed ? 'type-narrowed' : 'type-widened';
  ctx.report({ breaking: breaks(ctx, narrowed), code, location: `${at}/type`, message });
  return false;
}

function valuesOf(schema: Json): unknown[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum;
  return 'const' in schema ? [schema.const] : undefined;
}

/** Compares `enum` and `const`: removed values narrow a request, added ones widen a response. */
export function compareEnums(ctx: SchemaContext, b: Json, c: Json, at: string, path: string) {
  const bv = valuesOf(b);
  const cv = valuesOf(c);
  if (!bv && !cv) return;
  const what = thing(ctx, path);
  const location = `${at}/${Array.isArray(c.enum) || Array.isArray(b.enum) ? 'enum' : 'const'}`;
  if (!bv || !cv) {
    const narrowed = !bv;
    ctx.report({
      breaking: breaks(ctx, narrowed),
      code: narrowed ? 'constraint-narrowed' : 'constraint-widened',
      location,
      message: `${what} ${narrowed ? 'now limited to' : 'no longer limited to'} ${JSON.stringify(bv ?? cv)}`,
    });
    return;
  }
  const keys = (list: unknown[]) => new Set(list.map((v) => JSON.stringify(v)));
  const bk = keys(bv);
  const ck = keys(cv);
  const removed = [...bk].filter((v) => !ck.has(v));
  const added = [...ck].filter((v) => !bk.has(v));
  if (removed.length) {
    ctx.report({
      breaking: breaks(ctx, true),
      code: 'enum-value-removed',
      location,
      message: `enum value removed from ${what}: ${removed.join(', ')}`,
    });
  }
  if (added.length) {
    ctx.report({
      breaking: breaks(ctx, false),
      code: 'enum-value-added',
      location,
      message: `enum value added to ${what}: ${added.join(', ')}`,
    });
  }
}

const LOWER = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
const UPPER = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];
const EXACT = ['pattern', 'format', 'multipleOf', 'uniqueItems'];

/**
 * Compares the bounds: a higher minimum, a lower maximum, a new or changed pattern or format
 * narrows; the reverse widens.
 */
export function compareBounds(ctx: SchemaContext, b: Json, c: Json, at: string, path: string) {
  for (const key of [...LOWER, ...UPPER, ...EXACT]) {
    const bv = b[key];
    const cv = c[key];
    if (bv === cv || JSON.stringify(bv) === JSON.stringify(cv)) continue;
    let narrowed: boolean;
    if (cv === undefined || cv === false) narrowed = false;
    else if (bv === undefined || bv === false) narrowed = true;
    else if (typeof bv === 'number' && typeof cv === 'number' && !EXACT.includes(key)) {
      narrowed = LOWER.includes(key) ? cv > bv : cv < bv;
    } else {
      // A different pattern, format or multipleOf: neither set holds the other, so both ways.
      ctx.report({
        breaking: true,
        code: 'constraint-narrowed',
        location: `${at}/${key}`,
        message: `${key} of ${thing(ctx, path)} changed: ${JSON.stringify(bv)} → ${JSON.stringify(cv)}`,
      });
      continue;
    }
    ctx.report({
      breaking: breaks(ctx, narrowed),
      code: narrowed ? 'constraint-narrowed' : 'constraint-widened',
      location: `${at}/${key}`,
      message: `${key} of ${thing(ctx, path)} ${narrowed ? 'narrowed' : 'widened'}: ${JSON.stringify(bv) ?? 'none'} → ${JSON.stringify(cv) ?? 'none'}`,
    });
  }
}
