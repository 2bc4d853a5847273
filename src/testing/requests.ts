/**
 * Requests derived from one operation of the document: valid ones sampled from its schemas, and
 * invalid ones made by breaking a part (a missing required field, a wrong type, malformed JSON,
 * an unsupported media type).
 * @module
 */
import type { Arbitrary } from 'fast-check';
import type { JsonSchema, OperationObject, ParameterObject } from '../docs/types.js';
import type { Arbitraries } from './arbitrary.js';
import { isJson } from './check.js';
import type { FastCheck } from './peers.js';

/** A request to send, and whether the document says it is invalid. */
export interface DerivedRequest {
  /** The method, upper-case. */
  readonly method: string;
  /** Path and query. */
  readonly url: string;
  /** Headers to send. */
  readonly headers: Record<string, string>;
  /** The body, already encoded. */
  readonly payload?: string;
  /** What makes it invalid; absent for a valid request. */
  readonly invalid?: string;
  /** The path parameters' values. */
  readonly path: Readonly<Record<string, unknown>>;
  /** Whether every path value was given (a fixture or a value a response returned). */
  readonly known: boolean;
  /** What a valid request lacks that the document requires (a body that is not generated). */
  readonly incomplete?: string;
}

/** What deriving needs. */
export interface DeriveOptions {
  readonly fc: FastCheck;
  readonly arbitraries: Arbitraries;
  /** Valid requests per operation. */
  readonly runs: number;
  readonly seed: number;
  /** Also derive invalid requests. */
  readonly invalid: boolean;
  /** Values for path and query parameters, by name: the i-th valid request takes the i-th (round). */
  readonly given?: readonly Readonly<Record<string, unknown>>[];
  /** Whether a value satisfies a schema; sampled values it refuses are not sent. */
  readonly accepts?: (schema: JsonSchema, value: unknown) => boolean;
}

interface Parts {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  header: Record<string, unknown>;
  cookie: Record<string, unknown>;
  body?: unknown;
  /** The path parameters whose values were given. */
  known?: ReadonlySet<string>;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function urlOf(template: string, parts: Parts): string {
  const path = template.replace(/\{([^}]+)\}/g, (_m, name: string) =>
    encodeURIComponent(text(parts.path[name])),
  );
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(parts.query)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) search.append(name, text(v));
  }
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

/** Every request derived from the operation `method template`. */
export function deriveRequests(
  template: string,
  method: string,
  op: OperationObject,
  o: DeriveOptions,
): DerivedRequest[] {
  const { fc, arbitraries } = o;
  const params = op.parameters ?? [];
  const group = (where: ParameterObject['in']) => {
    const model: Record<string, Arbitrary<unknown>> = {};
    const required: string[] = [];
    for (const p of params.filter((x) => x.in === where)) {
      model[p.name] = arbitraries.of(p.schema, where !== 'query');
      if (p.required) required.push(p.name);
    }
    return fc.record(model, { requiredKeys: required });
  };
  const bodyType = Object.keys(op.requestBody?.content ?? {})[0];
  const bodySchema = bodyType === undefined ? undefined : op.requestBody?.content[bodyType]?.schema;
  const jsonBody = bodyType !== undefined && isJson(bodyType) && bodySchema !== undefined;
  const body = jsonBody ? arbitraries.of(bodySchema) : fc.constant(undefined);
  const parts = fc.record({
    path: group('path'),
    query: group('query'),
    header: group('header'),
    cookie: group('cookie'),
    body,
  }) as Arbitrary<Parts>;
  const samples = validSamples(parts, params, jsonBody ? bodySchema : undefined, o);

  const build = (p: Parts, invalid?: string, raw?: { type: string; payload: string }) => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(p.header)) if (v !== undefined) headers[k] = text(v);
    const cookies = Object.entries(p.cookie)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${encodeURIComponent(text(v))}`);
    if (cookies.length) headers.cookie = cookies.join('; ');
    const names = params.filter((x) => x.in === 'path').map((x) => x.name);
    const r: { -readonly [K in keyof DerivedRequest]: DerivedRequest[K] } = {
      method,
      url: urlOf(template, p),
      headers,
      path: p.path,
      known: names.every((n) => p.known?.has(n)),
    };
    if (raw) {
      headers['content-type'] = raw.type;
      r.payload = raw.payload;
    } else if (p.body !== undefined && bodyType) {
      headers['content-type'] = bodyType;
      r.payload = JSON.stringify(p.body);
    }
    if (invalid) r.invalid = invalid;
    else if (op.requestBody?.required && !jsonBody && !raw) {
      r.incomplete = `its ${bodyType} body is not generated`;
    }
    return r as DerivedRequest;
  };
  const out = samples.map((p) => build(p));
  const base = samples[0];
  if (!o.invalid || !base) return out;

  for (const p of params) {
    if (p.in === 'path') continue;
    const broken = wrongValue(arbitraries.resolve(p.schema));
    const bucket = p.in;
    if (p.required) {
      const { [p.name]: _gone, ...rest } = base[bucket];
      out.push(
        build({ ...base, [bucket]: rest }, `the required ${p.in} parameter ${p.name} is missing`),
      );
    }
    if (broken !== undefined) {
      out.push(
        build(
          { ...base, [bucket]: { ...base[bucket], [p.name]: broken } },
          `the ${p.in} parameter ${p.name} is ${broken}`,
        ),
      );
    }
  }
  if (op.requestBody && bodyType) {
    if (jsonBody) {
      out.push(
        build(base, 'the body is malformed JSON', { type: bodyType, payload: '{"unterminated":' }),
      );
      const schema = arbitraries.resolve(bodySchema);
      const required = (schema.required ?? []) as string[];
      if (
        schema.type === 'object' &&
        required.length &&
        base.body &&
        typeof base.body === 'object'
      ) {
        const { [required[0]!]: _gone, ...rest } = base.body as Record<string, unknown>;
        out.push(build({ ...base, body: rest }, `the body lacks the required ${required[0]}`));
      }
      if (schema.type === 'object' || schema.type === 'array') {
        out.push(build({ ...base, body: 12345 }, 'the body has the wrong JSON type'));
      }
    }
    out.push(
      build(base, 'the body has a media type no route parses', {
        type: 'application/x-keelson-unknown',
        payload: 'x',
      }),
    );
  }
  return out;
}

/** A query or header value the parameter's schema refuses, when one is certain. */
function wrongValue(schema: JsonSchema): string | undefined {
  if (Array.isArray(schema.enum)) return '~not-one-of-the-values~';
  if (schema.type === 'integer' || schema.type === 'number') return 'not-a-number';
  if (schema.type === 'string' && typeof schema.maxLength === 'number') {
    return 'x'.repeat(schema.maxLength + 1);
  }
  return undefined;
}

/**
 * `o.runs` samples whose every part its schema accepts (a generator may miss a keyword), the
 * given values put in: fewer when too few candidates pass.
 */
function validSamples(
  parts: Arbitrary<Parts>,
  params: readonly ParameterObject[],
  body: JsonSchema | undefined,
  o: DeriveOptions,
): Parts[] {
  const candidates = o.fc.sample(parts, { numRuns: o.accepts ? o.runs * 8 : o.runs, seed: o.seed });
  const ok = (p: Parts) =>
    !o.accepts ||
    ((body === undefined || p.body === undefined || o.accepts(body, p.body)) &&
      params.every((x) => {
        const v = p[x.in][x.name];
        return v === undefined || o.accepts!(x.schema, v);
      }));
  const picked = candidates.filter(ok).slice(0, o.runs);
  return picked.map((p, i) => {
    const given = o.given?.length ? o.given[i % o.given.length]! : {};
    const known = new Set<string>();
    const path = { ...p.path };
    const query = { ...p.query };
    for (const x of params) {
      if (!(x.name in given) || (x.in !== 'path' && x.in !== 'query')) continue;
      if (x.in === 'path') {
        path[x.name] = given[x.name];
        known.add(x.name);
      } else query[x.name] = given[x.name];
    }
    return { ...p, path, query, known };
  });
}
