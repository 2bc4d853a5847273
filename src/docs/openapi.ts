/**
 * The OpenAPI 3.1 document of a route table, built once at startup.
 * @module
 */
import type { DocsTag, ResolvedConfig } from '../config/index.js';
import { PROBLEM_CONTENT_TYPE } from '../errors/index.js';
import { scopeVersion } from '../routing/deprecation.js';
import type { RouteEntry } from '../routing/table.js';
import type { Middleware, Schema } from '../routing/types.js';
import { SchemaRegistry } from './components.js';
import { addInferredLinks } from './links.js';
import { mergeSecuritySchemes, middlewareAround } from './middleware.js';
import { checkSecurity, describeRoute, type PlannedOperation, planOperation } from './operation.js';
import { capitalize, defaultOperationId } from './operation-id.js';
import type { PathVariant } from './paths.js';
import { PROBLEM_COMPONENT, PROBLEM_SCHEMA } from './problem-schema.js';
import { pruneComponents } from './prune.js';
import type { ErrorBody } from './responses.js';
import type { OpenApiDocument, OperationObject } from './types.js';

export type { OpenApiDocument } from './types.js';

/** What the app adds to the route table when it builds the document. */
export interface BuildOpenApiOptions {
  /**
   * The body of every error answer, when the app reshapes it (`errors` app option).
   * @default problem+json with the `Problem` schema
   */
  errorResponse?: { contentType: string; schema?: Schema };
  /** The app-level middleware (`app.use(fn)`), which runs on every route but the builtin ones. */
  middleware?: readonly Middleware[];
  /**
   * The API version to document: the routes of groups of that version and the routes of no
   * version (health, the banner), the title followed by ` (<version>)`. @default every route
   */
  version?: string;
}

/** One operation to be placed in the document. */
interface Slot {
  readonly plan: PlannedOperation;
  readonly variant: PathVariant;
  readonly method: string;
  readonly head: boolean;
  readonly id: string;
}

/**
 * Builds the OpenAPI 3.1 document of the route table: every route not marked `hidden` is an
 * operation (a GET also a HEAD unless `docs.head` is false, a path with an optional parameter
 * two; Keelson's own routes unless `docs.builtins` is false). Throws, naming the
 * route, when a schema cannot be expressed, two routes set the same operationId, two schemas
 * share an id, two middleware declare one security scheme differently, or a route requires an
 * undeclared security scheme.
 */
export function buildOpenApi(
  config: ResolvedConfig,
  routes: readonly RouteEntry[],
  options: BuildOpenApiOptions = {},
): OpenApiDocument {
  const { docs } = config;
  const registry = new SchemaRegistry();
  const appMiddleware = options.middleware ?? [];
  // docs.builtins: false keeps Keelson's own routes (health) out; they are still served.
  const visible = routes.filter(
    (e) => !e.def.options.hidden && (docs.builtins || !e.builtin) && inVersion(e, options.version),
  );
  const schemes = mergeSecuritySchemes(
    docs.securitySchemes,
    new Set(visible.flatMap((e) => middlewareAround(e, appMiddleware))),
  );
  const custom = options.errorResponse;
  const customRef =
    custom?.schema && registry.add(custom.schema, 'output', 'the errors.schema option', 'Error');
  const errorBody: ErrorBody = {
    contentType: custom?.contentType ?? PROBLEM_CONTENT_TYPE,
    problem: custom === undefined,
    schema: () =>
      custom ? customRef?.schema() : { $ref: `#/components/schemas/${PROBLEM_COMPONENT}` },
  };
  if (docs.security) checkSecurity('docs.security', docs.security, schemes);
  const ctx = { registry, docs, errorBody, appMiddleware, schemes };
  const planned = visible.map((entry) => planOperation(entry, ctx));
  const slots = assignIds(planned, routes, docs.head);
  const schemas = registry.finish({ [PROBLEM_COMPONENT]: PROBLEM_SCHEMA });

  const paths: Record<string, Record<string, OperationObject>> = {};
  const tags: DocsTag[] = [...docs.tags];
  const tagNames = new Set(tags.map((t) => t.name));
  for (const slot of slots) {
    const operation = slot.plan.build(slot.variant, slot.head ? 'HEAD' : undefined);
    operation.operationId = slot.id;
    // With schemes in the document, say outright that an operation without a requirement is open.
    const open = slot.plan.entry.builtin || !docs.security;
    if (!operation.security && open && Object.keys(schemes).length) {
      operation.security = [];
    }
    paths[slot.variant.template] ??= {};
    paths[slot.variant.template]![slot.method] = operation;
    for (const tag of operation.tags ?? []) {
      if (!tagNames.has(tag)) tags.push({ name: tag });
      tagNames.add(tag);
    }
  }

  const title = options.version === undefined ? docs.title : `${docs.title} (${options.version})`;
  const info: OpenApiDocument['info'] = { title, version: docs.version };
  if (docs.description) info.description = docs.description;
  if (docs.contact) info.contact = docs.contact;
  if (docs.license) info.license = docs.license;
  const doc = { openapi: '3.1.0', info } as OpenApiDocument;
  if (docs.servers.length) doc.servers = docs.servers;
  if (tags.length) doc.tags = tags;
  if (docs.security) doc.security = docs.security;
  doc.paths = paths;
  doc.components = { schemas: pruneComponents(schemas, paths) };
  if (Object.keys(schemes).length) doc.components.securitySchemes = schemes;
  addInferredLinks(doc);
  // A symbol-keyed, non-enumerable property: not in the JSON, and found by another copy of this
  // module (the keelson command importing a project that imports keelson).
  Object.defineProperty(doc, OPERATIONS, {
    value: slots.map((slot) => ({
      entry: slot.plan.entry,
      method: slot.method.toUpperCase(),
      template: slot.variant.template,
      without: slot.variant.without,
      operationId: slot.id,
    })),
  });
  return doc;
}

/** One operation of a built document, with the route it documents. */
export interface DocumentedOperation {
  /** The route. */
  readonly entry: RouteEntry;
  /** `GET`, `HEAD`…: `HEAD` for the one the engine derives from a GET. */
  readonly method: string;
  /** Its path in the document, e.g. `/files/{name}`. */
  readonly template: string;
  /** The optional parameter this path leaves out, if any. */
  readonly without: string | undefined;
  /** Its operationId in the document. */
  readonly operationId: string;
}

const OPERATIONS = Symbol.for('keelson.documentedOperations');

/** The operations of a document `buildOpenApi` made, in document order; undefined for another. */
export function documentedOperations(
  doc: OpenApiDocument,
): readonly DocumentedOperation[] | undefined {
  return (doc as { [OPERATIONS]?: readonly DocumentedOperation[] })[OPERATIONS];
}

/** The API versions of a route table's groups, in the order they first appear. */
export function versionsOf(routes: readonly RouteEntry[]): string[] {
  const found = new Set<string>();
  for (const e of routes) {
    const v = scopeVersion(e.scope);
    if (v !== undefined) found.add(v);
  }
  return [...found];
}

// A version's document has its own routes and the routes of no version, which all clients share.
function inVersion(entry: RouteEntry, version: string | undefined): boolean {
  if (version === undefined) return true;
  const own = scopeVersion(entry.scope);
  return own === undefined || own === version;
}

// `/users/:id` and `/users/:userId` are the same path to the router.
function pathKey(path: string): string {
  return path.replace(/:[^/]+/g, ':');
}

/**
 * Every operation with a unique id: ids a route sets are kept (two equal ones are an error
 * naming both routes); an automatic id already taken gets the next free number, in
 * registration order, so ids stay the same from one start to the next.
 */
function assignIds(
  planned: readonly PlannedOperation[],
  routes: readonly RouteEntry[],
  withHead: boolean,
): Slot[] {
  const explicitHead = new Set(
    routes.filter((e) => e.method === 'HEAD').map((e) => pathKey(e.path)),
  );
  const wanted: (Omit<Slot, 'id'> & { id: string; explicit: boolean })[] = [];
  for (const plan of planned) {
    const { entry } = plan;
    const heads =
      withHead && entry.method === 'GET' && !explicitHead.has(pathKey(entry.path))
        ? [false, true]
        : [false];
    for (const variant of plan.variants) {
      const suffix = variant.without ? `Without${capitalize(variant.without)}` : '';
      for (const head of heads) {
        let id = plan.operationId;
        if (head) id = plan.explicitId ? `${id}Head` : defaultOperationId('HEAD', entry.path);
        wanted.push({
          plan,
          variant,
          head,
          method: head ? 'head' : entry.method.toLowerCase(),
          id: id + suffix,
          explicit: plan.explicitId && !head,
        });
      }
    }
  }
  const owner = new Map<string, RouteEntry>();
  for (const w of wanted) {
    if (!w.explicit) continue;
    const other = owner.get(w.id);
    if (other && other !== w.plan.entry) {
      throw new Error(
        `operationId "${w.id}" is used by ${describeRoute(other)} and by ${describeRoute(w.plan.entry)}; set options.operationId on one of them`,
      );
    }
    owner.set(w.id, w.plan.entry);
  }
  return wanted.map((w) => {
    if (w.explicit) return w;
    let id = w.id;
    for (let n = 2; owner.has(id); n++) id = `${w.id}${n}`;
    owner.set(id, w.plan.entry);
    return { ...w, id };
  });
}
