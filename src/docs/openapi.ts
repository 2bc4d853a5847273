import type { ResolvedConfig } from '../config.js';
import type { RouteEntry } from '../routing/table.js';

/** An OpenAPI 3.1 document, as plain JSON. */
export type OpenApiDocument = Record<string, unknown>;

/** Builds the OpenAPI 3.1 document of the route table. */
export function buildOpenApi(
  config: ResolvedConfig,
  routes: readonly RouteEntry[],
): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    if (r.def.options.hidden) continue;
    const path = r.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const o = r.def.options;
    const responses: Record<string, unknown> = {};
    for (const status of Object.keys(o.responses ?? {}))
      responses[status] = { description: 'Response' };
    if (Object.keys(responses).length === 0) responses['200'] = { description: 'Response' };
    paths[path] ??= {};
    paths[path][r.method.toLowerCase()] = {
      operationId:
        o.operationId ??
        `${r.method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, ch: string | undefined) => (ch ? ch.toUpperCase() : ''))}`,
      ...(o.summary ? { summary: o.summary } : {}),
      ...(o.description ? { description: o.description } : {}),
      ...(o.tags ? { tags: o.tags } : {}),
      ...(o.deprecated ? { deprecated: true } : {}),
      responses,
    };
  }
  const { docs } = config;
  return {
    openapi: '3.1.0',
    info: {
      title: docs.title,
      version: docs.version,
      ...(docs.description ? { description: docs.description } : {}),
      ...(docs.contact ? { contact: docs.contact } : {}),
      ...(docs.license ? { license: docs.license } : {}),
    },
    ...(docs.servers.length ? { servers: docs.servers } : {}),
    ...(docs.tags.length ? { tags: docs.tags } : {}),
    paths,
  };
}
