/**
 * The registry that turns converted schemas into `components.schemas` and `$ref`s to them.
 * @module
 */
import type { Schema } from '../routing/types.js';
import { type Side, toJsonSchema } from './json-schema.js';
import type { JsonSchema } from './types.js';

/** `#/$defs/Name` and anything after it. */
const DEFS_REF = /^#\/\$defs\/([^/]+)(.*)$/;
/** Zod's names for the definitions it makes up for a cycle without an id. */
const ANONYMOUS = /^__schema\d+$/;
/** What an OpenAPI component key may contain. */
const COMPONENT_NAME = /^[A-Za-z0-9._-]+$/;
const COMPONENTS = '#/components/schemas/';
/** In JSON text: a `$ref` to the root (`#`, or `#/…` outside `$defs`). */
const ROOT_REF = /"\$ref":"#(?:"|\/(?!\$defs\/))/;
/** In JSON text: a `$ref` to a made-up definition. */
const MADE_UP_REF = /"#\/\$defs\/__schema\d+"/g;
/** In JSON text: a `$ref` to a definition with an id; group 1 is the id. */
const ID_REF = /"\$ref":"#\/\$defs\/(?!__schema\d+")([^"/]+)"/g;

/** One side of one schema value, converted once however many routes use it. */
interface Conversion {
  readonly side: Side;
  /** The first route part that used it, for messages. */
  readonly part: string;
  /** The prefix of the names made up for its definitions without an id. */
  readonly base: string;
  readonly root: JsonSchema;
  readonly defs: Record<string, JsonSchema>;
  /** The root refers to itself (`$ref: '#'`): it becomes a component of its own. */
  readonly selfRef: boolean;
  /** Definition name → component name, filled by `finish()`. */
  names: Map<string, string>;
  rootName: string | undefined;
}

/** A schema with an id, as met on one side. */
interface Definition {
  readonly id: string;
  readonly json: JsonSchema;
  /** Its JSON with made-up names blanked, to compare two uses of the id. */
  readonly key: string;
  readonly from: Conversion;
}

/** A converted schema, usable once the registry has finished. */
export class SchemaRef {
  readonly #c: Conversion;

  /** Wraps a conversion; made by SchemaRegistry only. */
  constructor(conversion: Conversion) {
    this.#c = conversion;
  }

  /** The route part it came from, for messages. */
  get part(): string {
    return this.#c.part;
  }

  /** The schema, with `$ref`s pointing into `components.schemas`. */
  schema(): JsonSchema {
    const c = this.#c;
    if (c.rootName) return { $ref: COMPONENTS + c.rootName };
    return rewrite(c.root, c) as JsonSchema;
  }

  /**
   * The properties and required names of an object schema (following a root `$ref`), for
   * parameters; undefined when the schema does not describe an object with properties.
   */
  objectShape(): { properties: Record<string, JsonSchema>; required: string[] } | undefined {
    const c = this.#c;
    let obj = c.root;
    const ref = typeof obj.$ref === 'string' ? DEFS_REF.exec(obj.$ref) : null;
    if (ref && ref[2] === '') obj = c.defs[ref[1]!] ?? obj;
    if (obj.type !== 'object' || typeof obj.properties !== 'object' || obj.properties === null) {
      return undefined;
    }
    const properties: Record<string, JsonSchema> = {};
    for (const [name, prop] of Object.entries(obj.properties as Record<string, JsonSchema>)) {
      properties[name] = rewrite(prop, c) as JsonSchema;
    }
    const required = Array.isArray(obj.required) ? (obj.required as string[]) : [];
    return { properties, required };
  }
}

/**
 * Collects the schemas of every route, then names the shared ones: a schema with an id becomes
 * `components.schemas[id]` (its input side `<id>Input` when it differs from the output side),
 * a definition without an id gets a name made from the route and part that first used it.
 */
export class SchemaRegistry {
  readonly #cache = new WeakMap<object, { input?: Conversion; output?: Conversion }>();
  readonly #conversions: Conversion[] = [];
  readonly #ids = new Map<string, { input?: Definition; output?: Definition }>();
  readonly #components: Record<string, JsonSchema> = {};
  #finished = false;

  /** Converts one side of `schema` (once per schema value); `base` prefixes made-up names. */
  add(schema: Schema, side: Side, part: string, base: string): SchemaRef {
    const cached = this.#cache.get(schema) ?? {};
    let c = cached[side];
    if (!c) {
      c = this.#convert(schema, side, part, base);
      cached[side] = c;
      this.#cache.set(schema, cached);
    }
    return new SchemaRef(c);
  }

  /** Names every shared schema and fills the components; throws on an id used by two schemas. */
  finish(reserved: Record<string, JsonSchema>): Record<string, JsonSchema> {
    if (this.#finished) return this.#components;
    this.#finished = true;
    const idName = this.#nameIds(reserved);
    const taken = new Set<string>([...Object.keys(reserved), ...idName.values()]);
    const unique = (name: string) => {
      let candidate = name;
      for (let i = 2; taken.has(candidate); i++) candidate = `${name}${i}`;
      taken.add(candidate);
      return candidate;
    };
    for (const c of this.#conversions) {
      for (const def of Object.keys(c.defs)) {
        c.names.set(
          def,
          ANONYMOUS.test(def)
            ? unique(`${c.base}${def.replace(/_/g, '')}`)
            : idName.get(`${c.side} ${def}`)!,
        );
      }
      if (c.selfRef) c.rootName = unique(c.base);
    }
    const out: Record<string, JsonSchema> = { ...reserved };
    for (const sides of this.#ids.values()) {
      for (const d of [sides.output, sides.input]) {
        if (!d) continue;
        const name = d.from.names.get(d.id)!;
        out[name] ??= rewrite(d.json, d.from) as JsonSchema;
      }
    }
    for (const c of this.#conversions) {
      for (const [def, json] of Object.entries(c.defs)) {
        if (ANONYMOUS.test(def)) out[c.names.get(def)!] = rewrite(json, c) as JsonSchema;
      }
      if (c.rootName) out[c.rootName] = rewrite(c.root, c) as JsonSchema;
    }
    for (const name of Object.keys(out).sort()) this.#components[name] = out[name]!;
    return this.#components;
  }

  #convert(schema: Schema, side: Side, part: string, base: string): Conversion {
    const json = toJsonSchema(schema, side, part);
    const { $schema: _dialect, $defs, ...root } = json;
    const defs = (typeof $defs === 'object' && $defs !== null ? $defs : {}) as Record<
      string,
      JsonSchema
    >;
    const c: Conversion = {
      side,
      part,
      base,
      root,
      defs,
      selfRef: ROOT_REF.test(JSON.stringify(json)),
      names: new Map(),
      rootName: undefined,
    };
    for (const [id, def] of Object.entries(defs)) {
      if (ANONYMOUS.test(id)) continue;
      if (!COMPONENT_NAME.test(id)) {
        throw new Error(
          `${part}: schema id ${JSON.stringify(id)} cannot name an OpenAPI component (letters, digits, ".", "-" and "_" only)`,
        );
      }
      const sides = this.#ids.get(id) ?? {};
      const key = JSON.stringify(def).replace(MADE_UP_REF, '"#/$defs/~"');
      const seen = sides[side];
      if (seen && seen.key !== key) {
        throw new Error(
          `schema id "${id}" names two different schemas: one in ${seen.from.part}, another in ${part}; give each its own id`,
        );
      }
      if (!seen) sides[side] = { id, json: def, key, from: c };
      this.#ids.set(id, sides);
    }
    this.#conversions.push(c);
    return c;
  }

  /** `"<side> <id>"` → component name. */
  #nameIds(reserved: Record<string, JsonSchema>): Map<string, string> {
    // An id's input side needs a name of its own when it, or any id it refers to, differs.
    const differs = new Set<string>();
    for (const [id, s] of this.#ids)
      if (s.input && s.output && s.input.key !== s.output.key) differs.add(id);
    for (let grew = true; grew; ) {
      grew = false;
      for (const [id, s] of this.#ids) {
        if (differs.has(id) || !s.input) continue;
        if (idsIn(s.input.json).some((ref) => differs.has(ref) && this.#ids.get(ref)?.output)) {
          differs.add(id);
          grew = true;
        }
      }
    }
    const names = new Map<string, string>();
    const owner = new Map<string, string>();
    const claim = (name: string, who: string) => {
      const other = owner.get(name) ?? (name in reserved ? 'Keelson' : undefined);
      if (other && other !== who) {
        throw new Error(
          `schema id "${name}" is needed for ${who} but already names ${other}; rename one of them`,
        );
      }
      owner.set(name, who);
      return name;
    };
    for (const [id, s] of this.#ids) {
      if (s.output) names.set(`output ${id}`, claim(id, `the schema with id "${id}"`));
      if (s.input) {
        const name = differs.has(id) && s.output ? `${id}Input` : id;
        names.set(`input ${id}`, claim(name, `the schema with id "${id}"`));
      }
    }
    return names;
  }
}

function idsIn(json: unknown): string[] {
  return Array.from(JSON.stringify(json).matchAll(ID_REF), (m) => m[1]!);
}

/** A deep copy with every local `$ref` pointing into `components.schemas`. */
function rewrite(value: unknown, c: Conversion): unknown {
  if (Array.isArray(value)) return value.map((v) => rewrite(v, c));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = key === '$ref' && typeof v === 'string' ? rewriteRef(v, c) : rewrite(v, c);
  }
  return out;
}

function rewriteRef(ref: string, c: Conversion): string {
  const m = DEFS_REF.exec(ref);
  if (m) {
    const name = c.names.get(m[1]!);
    return name === undefined ? ref : COMPONENTS + name + m[2]!;
  }
  if (ref === '#' || ref.startsWith('#/')) return COMPONENTS + c.rootName + ref.slice(1);
  return ref;
}
