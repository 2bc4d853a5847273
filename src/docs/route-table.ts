/**
 * The route table as rows for people: what `keelson routes` prints and the dev panel shows.
 * @module
 */
import type { RouteEntry } from '../routing/table.js';
import { middlewareOf } from '../routing/table.js';
import type { Middleware } from '../routing/types.js';
import { defaultOperationId } from './operation-id.js';
import { pathVariants } from './paths.js';
import type { OpenApiDocument } from './types.js';

/** One route, described. */
export interface RouteRow {
  /** The HTTP method. */
  readonly method: string;
  /** The full path. */
  readonly path: string;
  /** The OpenAPI operationId (given or derived); empty for a route hidden from the document. */
  readonly operationId: string;
  /** The names of the middleware it runs inside, outermost first. */
  readonly middleware: readonly string[];
  /** Who registered it: a controller's class name, `app` or `keelson`. */
  readonly source: string;
}

function nameOf(fn: Middleware): string {
  return fn.name || 'anonymous';
}

// The id the document gave the route: an automatic id another route had taken gets a number.
function documentedId(document: OpenApiDocument | undefined, e: RouteEntry): string | undefined {
  if (!document) return undefined;
  const template = pathVariants(e.path)[0]!.template;
  return document.paths[template]?.[e.method.toLowerCase()]?.operationId;
}

/**
 * The rows of `routes`, app-wide middleware first for the routes it runs on (not builtin ones);
 * operation ids are read from `document` when there is one, as clients generated from it see them.
 */
export function routeRows(
  routes: readonly RouteEntry[],
  appMiddleware: readonly Middleware[],
  document?: OpenApiDocument,
): RouteRow[] {
  return routes.map((e) => ({
    method: e.method,
    path: e.path,
    operationId: e.def.options.hidden
      ? ''
      : (documentedId(document, e) ??
        e.def.options.operationId ??
        defaultOperationId(e.method, e.path)),
    middleware: [
      ...(e.builtin ? [] : appMiddleware),
      ...middlewareOf(e.scope),
      ...(e.def.options.middleware ?? []),
    ].map(nameOf),
    source: e.origin,
  }));
}

/** The rows as an aligned text table with a header line. */
export function formatRouteTable(rows: readonly RouteRow[]): string {
  const header = ['METHOD', 'PATH', 'OPERATION', 'MIDDLEWARE', 'SOURCE'];
  const cells = rows.map((r) => [
    r.method,
    r.path,
    r.operationId || '(hidden)',
    r.middleware.join(', ') || '-',
    r.source,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  return [header, ...cells]
    .map((line) =>
      line.map((cell, i) => (i === line.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '),
    )
    .join('\n');
}
