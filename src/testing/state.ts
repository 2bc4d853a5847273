/**
 * What verifyContract carries from one operation to the next: the order it sends operations in
 * (create, read, update, list, delete), and the path values responses return, through the
 * document's links (declared, or inferred from paths and response schemas).
 * @module
 */
import { inferLinks, pathParams } from '../docs/links.js';
import type { LinkObject, OpenApiDocument, OperationObject } from '../docs/types.js';
import type { DerivedRequest } from './requests.js';

/** One operation of the document. */
export interface PlannedOp {
  /** Its path template. */
  readonly path: string;
  /** Its method, upper-case. */
  readonly method: string;
  /** The operation. */
  readonly op: OperationObject;
}

/** A response, as links read it. */
export interface LinkedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, unknown>>;
  readonly body: string;
}

type Values = Readonly<Record<string, unknown>>;

function phase({ method, path }: PlannedOp): number {
  const item = /\}$/.test(path);
  if (method === 'DELETE') return 4;
  if (method === 'POST' && !item) return 0;
  if ((method === 'GET' || method === 'HEAD') && item) return 1;
  if (item) return 2;
  return 3;
}

/**
 * The document's operations in the order to send them: creations first (shallow paths before
 * nested ones), then reads of one item, updates and actions, lists, and deletions last (nested
 * paths before their parents), so each finds the values the earlier ones returned.
 */
export function orderOperations(doc: OpenApiDocument): PlannedOp[] {
  const ops = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([verb, op]) => ({ path, method: verb.toUpperCase(), op })),
  );
  const depth = (o: PlannedOp) => o.path.split('/').length;
  const keyed = ops.map((o, i) => ({ o, i, p: phase(o), d: depth(o) }));
  keyed.sort((a, b) => a.p - b.p || (a.p === 4 ? b.d - a.d : a.d - b.d) || a.i - b.i);
  return keyed.map((k) => k.o);
}

function pointer(value: unknown, ptr: string): unknown {
  let v = value;
  for (const raw of ptr.split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

function json(text: string | undefined): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** The value of a `Location`-like URL for path parameter `name` of `template`. */
function fromUrl(url: string, template: string, name: string): string | undefined {
  const path = url.replace(/^[a-z]+:\/\/[^/]+/i, '').split(/[?#]/)[0] ?? '';
  const names: string[] = [];
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const m = /^\{([^}]+)\}$/.exec(part);
      if (!m) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      names.push(m[1]!);
      return '([^/]+)';
    })
    .join('');
  const m = new RegExp(`${source}$`).exec(path);
  const raw = m ? m[names.indexOf(name) + 1] : path.split('/').filter(Boolean).pop();
  return raw === undefined ? undefined : decodeURIComponent(raw);
}

/** The path values responses returned, per operationId, and the fixtures the test gave. */
export class Bindings {
  readonly #fixtures: Record<string, unknown>;
  readonly #byOp = new Map<string, Values[]>();
  readonly #paths = new Map<string, string>();
  readonly #links = new Map<string, Record<string, LinkObject>>();

  /** Links of `doc` (declared ones win over inferred ones of the same name); `fixtures` by name. */
  constructor(doc: OpenApiDocument, fixtures: Record<string, unknown>) {
    this.#fixtures = fixtures;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [verb, op] of Object.entries(item)) {
        this.#paths.set(op.operationId, path);
        for (const [status, r] of Object.entries(op.responses)) {
          if (r.links) this.#links.set(`${verb} ${path} ${status}`, { ...r.links });
        }
      }
    }
    for (const l of inferLinks(doc)) {
      const key = `${l.method} ${l.path} ${l.status}`;
      const links = this.#links.get(key) ?? {};
      links[l.name] ??= l.link;
      this.#links.set(key, links);
    }
  }

  /** Values for the parameters of `op`: each binding a response gave, with the fixtures. */
  given(op: OperationObject): Values[] {
    const found = this.#byOp.get(op.operationId) ?? [];
    if (found.length) return found.map((b) => ({ ...this.#fixtures, ...b }));
    return Object.keys(this.#fixtures).length ? [this.#fixtures] : [];
  }

  /** Takes the values a success answer of `planned` gives through its links. */
  record(planned: PlannedOp, req: DerivedRequest, res: LinkedResponse): void {
    const { method, path } = planned;
    if (res.status < 200 || res.status >= 300) return;
    const links = this.#links.get(`${method.toLowerCase()} ${path} ${res.status}`) ?? {};
    let renamed = false;
    for (const link of Object.values(links)) {
      const target = this.#paths.get(link.operationId);
      if (target === undefined) continue;
      const values: Record<string, unknown> = {};
      for (const [name, expr] of Object.entries(link.parameters)) {
        const v = this.#evaluate(expr, req, res, target, name);
        if (v === undefined || v === null || typeof v === 'object') break;
        values[name] = v;
        if (name in req.path && String(req.path[name]) !== String(v)) renamed = true;
      }
      if (Object.keys(values).length !== Object.keys(link.parameters).length) continue;
      const list = this.#byOp.get(link.operationId) ?? [];
      const same = (b: Values) =>
        Object.keys(values).every((k) => String(b[k]) === String(values[k]));
      if (!list.some(same)) list.push(values);
      this.#byOp.set(link.operationId, list);
    }
    // A deletion, or an update that changed the value: the old value names nothing now.
    if ((method === 'DELETE' || renamed) && pathParams(path).length) this.#forget(req.path);
  }

  #forget(gone: Values): void {
    const names = Object.keys(gone);
    for (const [id, list] of this.#byOp) {
      const kept = list.filter(
        (b) => !names.every((n) => n in b && String(b[n]) === String(gone[n])),
      );
      this.#byOp.set(id, kept);
    }
  }

  #evaluate(
    expr: unknown,
    req: DerivedRequest,
    res: LinkedResponse,
    target: string,
    name: string,
  ): unknown {
    if (typeof expr !== 'string' || !expr.startsWith('$')) return expr;
    const [source, rest = ''] = expr.split(/#(.*)/s);
    if (source === '$response.body') return pointer(json(res.body), rest);
    if (source === '$request.body') return pointer(json(req.payload), rest);
    const header = /^\$response\.header\.(.+)$/.exec(expr);
    if (header) {
      const h = Object.entries(res.headers).find(
        ([k]) => k.toLowerCase() === header[1]!.toLowerCase(),
      );
      return typeof h?.[1] === 'string' ? fromUrl(h[1], target, name) : undefined;
    }
    const path = /^\$request\.path\.(.+)$/.exec(expr);
    if (path) return req.path[path[1]!];
    const query = /^\$request\.query\.(.+)$/.exec(expr);
    if (query) return new URL(req.url, 'http://x').searchParams.get(query[1]!) ?? undefined;
    return undefined;
  }
}
