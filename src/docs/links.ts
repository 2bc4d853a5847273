/**
 * OpenAPI `links` inferred from paths and response schemas: an operation that creates, updates
 * or lists the items of a collection (`POST /articles`, `PUT /articles/{slug}`, `GET /articles`)
 * returns the values (`slug`) that the operations on one item (`GET /articles/{slug}`) take.
 * @module
 */
import type { JsonSchema, LinkObject, OpenApiDocument, OperationObject } from './types.js';

/** One inferred link: on the `status` response of `method path`, named `name`. */
export interface InferredLink {
  /** The producing operation's path template. */
  readonly path: string;
  /** Its method, lower-case as in the document. */
  readonly method: string;
  /** The response status it is on. */
  readonly status: string;
  /** Its name: the target's operationId. */
  readonly name: string;
  /** The link. */
  readonly link: LinkObject;
}

interface Op {
  readonly path: string;
  readonly method: string;
  readonly op: OperationObject;
}

const SCALARS = new Set(['string', 'integer', 'number']);
const MAX_DEPTH = 3;

/** The path parameters of a template, in order, with the segment each is at. */
export function pathParams(template: string): { name: string; at: number }[] {
  const out: { name: string; at: number }[] = [];
  template.split('/').forEach((segment, at) => {
    const m = /^\{([^}]+)\}$/.exec(segment);
    if (m) out.push({ name: m[1]!, at });
  });
  return out;
}

function escapeKey(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** A JSON pointer to a scalar property `name` in values of `schema`, the shallowest first. */
function pointerTo(
  schema: JsonSchema | undefined,
  name: string,
  components: Readonly<Record<string, JsonSchema>>,
): string | undefined {
  let level: { s: JsonSchema; at: string }[] = schema ? [{ s: schema, at: '' }] : [];
  for (let depth = 0; depth <= MAX_DEPTH && level.length; depth++) {
    const next: { s: JsonSchema; at: string }[] = [];
    for (const { s: raw, at } of level) {
      let s = raw;
      for (let i = 0; i < 8 && typeof s.$ref === 'string'; i++) {
        s = components[decodeURIComponent(s.$ref.replace('#/components/schemas/', ''))] ?? {};
      }
      const props = (s.properties ?? {}) as Record<string, JsonSchema>;
      const hit = props[name];
      if (hit && (hit.type === undefined || SCALARS.has(String(hit.type)) || hit.$ref)) {
        return `${at}/${escapeKey(name)}`;
      }
      for (const [key, prop] of Object.entries(props))
        next.push({ s: prop, at: `${at}/${escapeKey(key)}` });
      if (s.type === 'array' && s.items) next.push({ s: s.items as JsonSchema, at: `${at}/0` });
    }
    level = next;
  }
  return undefined;
}

/** Where a producer's `status` response gives the value of the parameter `name`. */
function sourceOf(
  producer: Op,
  status: string,
  name: string,
  components: Readonly<Record<string, JsonSchema>>,
): string | undefined {
  const response = producer.op.responses[status];
  const schema = response?.content?.['application/json']?.schema;
  const pointer =
    pointerTo(schema, name, components) ??
    (/id$/i.test(name) && name !== 'id' ? pointerTo(schema, 'id', components) : undefined);
  if (pointer !== undefined) return `$response.body#${pointer}`;
  if (producer.method === 'post' && status === '201' && response?.headers?.Location) {
    return '$response.header.Location';
  }
  return undefined;
}

/** Every link the paths and response schemas of `doc` imply. */
export function inferLinks(doc: OpenApiDocument): InferredLink[] {
  const ops: Op[] = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op })),
  );
  const byKey = new Map(ops.map((o) => [`${o.method} ${o.path}`, o]));
  const components = doc.components?.schemas ?? {};
  const out: InferredLink[] = [];
  const seen = new Set<string>();
  for (const target of ops) {
    const params = pathParams(target.path);
    for (const { name, at } of params) {
      const prefix = target.path.split('/').slice(0, at).join('/');
      const item = `${prefix}/{${name}}`;
      const producers = [`post ${prefix}`, `put ${item}`, `patch ${item}`, `get ${prefix}`]
        .map((k) => byKey.get(k))
        .filter((p): p is Op => p !== undefined && p !== target);
      for (const producer of producers) {
        for (const status of Object.keys(producer.op.responses)) {
          if (!/^2\d\d$/.test(status)) continue;
          const from = sourceOf(producer, status, name, components);
          if (from === undefined) continue;
          // The target's other path values come from the producer's own request.
          const own = new Set(pathParams(producer.path).map((p) => p.name));
          const parameters: Record<string, string> = { [name]: from };
          for (const other of params) {
            if (other.name === name) continue;
            if (!own.has(other.name)) break;
            parameters[other.name] = `$request.path.${other.name}`;
          }
          if (Object.keys(parameters).length !== params.length) continue;
          const key = `${producer.method} ${producer.path} ${status} ${target.op.operationId}`;
          if (seen.has(key)) continue;
          seen.add(key);
          const link: LinkObject = { operationId: target.op.operationId, parameters };
          out.push({ ...producer, status, name: target.op.operationId, link });
        }
      }
    }
  }
  return out;
}

/** Adds the inferred links to `doc`'s responses, keeping any link of the same name it has. */
export function addInferredLinks(doc: OpenApiDocument): void {
  for (const l of inferLinks(doc)) {
    const response = doc.paths[l.path]?.[l.method]?.responses[l.status];
    if (!response) continue;
    response.links ??= {};
    response.links[l.name] ??= l.link;
  }
}
