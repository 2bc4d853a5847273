/**
 * The route table as rows for people: what `keelson routes` prints and the dev panel shows.
 * @module
 */
import { chainOf, type RouteEntry } from '../routing/table.js';
import type { Middleware } from '../routing/types.js';
import { type DocumentedOperation, documentedOperations } from './openapi.js';
import { defaultOperationId } from './operation-id.js';
import type { OpenApiDocument } from './types.js';

/** One route, described. */
export interface RouteRow {
  /** The HTTP method. */
  readonly method: string;
  /** The full path. */
  readonly path: string;
  /** The OpenAPI operationId; empty for a route the document leaves out. */
  readonly operationId: string;
  /** The names of the middleware it runs inside, outermost first. */
  readonly middleware: readonly string[];
  /** Who registered it: a controller's class name, `app` or `keelson`. */
  readonly source: string;
}

function nameOf(fn: Middleware): string {
  return fn.name || 'anonymous';
}

// `/files/:name?` without its optional parameter: `/files`.
function pathWithout(path: string, name: string): string {
  return path.replace(new RegExp(`/?:${name}(?:\\((?:\\\\.|[^\\\\)])*\\))?\\?$`), '') || '/';
}

/**
 * The rows of `routes`, app-wide middleware first for the routes it runs on (not builtin ones).
 * With a `document`, one row per operation of it (HEAD ones and both paths of an optional
 * parameter included), with its id, as clients generated from it see them; a route the
 * document leaves out has one row with an empty id.
 */
export function routeRows(
  routes: readonly RouteEntry[],
  appMiddleware: readonly Middleware[],
  document?: OpenApiDocument,
): RouteRow[] {
  const operations = document && documentedOperations(document);
  const byEntry = new Map<RouteEntry, DocumentedOperation[]>();
  for (const op of operations ?? []) {
    const list = byEntry.get(op.entry) ?? [];
    list.push(op);
    byEntry.set(op.entry, list);
  }
  return routes.flatMap((e) => {
    const row = {
      method: e.method,
      path: e.path,
      operationId: '',
      middleware: chainOf(e, appMiddleware).map(nameOf),
      source: e.origin,
    };
    const ops = byEntry.get(e);
    if (ops) {
      return ops.map((op) => ({
        ...row,
        method: op.method,
        path: op.without ? pathWithout(e.path, op.without) : e.path,
        operationId: op.operationId,
      }));
    }
    // Without a document (production), the id the route would get, numbering aside.
    if (!operations && !e.def.options.hidden) {
      row.operationId = e.def.options.operationId ?? defaultOperationId(e.method, e.path);
    }
    return [row];
  });
}

/** The rows as an aligned text table with a header line. */
export function formatRouteTable(rows: readonly RouteRow[]): string {
  const header = ['METHOD', 'PATH', 'OPERATION', 'MIDDLEWARE', 'SOURCE'];
  const cells = rows.map((r) => [
    r.method,
    r.path,
    r.operationId || '(not documented)',
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
