/**
 * The OpenAPI 3.1 document of a route table, built once at startup.
 * @module
 */
import type { DocsTag, ResolvedConfig } from '../config/index.js';
import type { RouteEntry } from '../routing/table.js';
import { SchemaRegistry } from './components.js';
import { describeRoute, type PlannedOperation, planOperation } from './operation.js';
import { toOpenApiPath } from './operation-id.js';
import { PROBLEM_COMPONENT, PROBLEM_SCHEMA } from './problem-schema.js';
import type { OpenApiDocument, OperationObject } from './types.js';

export type { OpenApiDocument } from './types.js';

/**
 * Builds the OpenAPI 3.1 document of the route table: every route not marked `hidden` is an
 * operation. Throws, naming the route, when a schema cannot be expressed, two routes share an
 * operationId, two schemas share an id, or a route requires an undeclared security scheme.
 */
export function buildOpenApi(
  config: ResolvedConfig,
  routes: readonly RouteEntry[],
): OpenApiDocument {
  const { docs } = config;
  const registry = new SchemaRegistry();
  const planned: PlannedOperation[] = [];
  const byId = new Map<string, RouteEntry>();
  for (const entry of routes) {
    if (entry.def.options.hidden) continue;
    const op = planOperation(entry, { registry, docs });
    const other = byId.get(op.operationId);
    if (other) {
      throw new Error(
        `operationId "${op.operationId}" is used by ${describeRoute(other)} and by ${describeRoute(entry)}; set options.operationId on one of them`,
      );
    }
    byId.set(op.operationId, entry);
    planned.push(op);
  }
  const schemas = registry.finish({ [PROBLEM_COMPONENT]: PROBLEM_SCHEMA });

  const paths: Record<string, Record<string, OperationObject>> = {};
  const tags: DocsTag[] = [...docs.tags];
  const tagNames = new Set(tags.map((t) => t.name));
  for (const op of planned) {
    const path = toOpenApiPath(op.entry.path);
    const operation = op.build();
    paths[path] ??= {};
    paths[path][op.entry.method.toLowerCase()] = operation;
    for (const tag of operation.tags ?? []) {
      if (!tagNames.has(tag)) tags.push({ name: tag });
      tagNames.add(tag);
    }
  }

  const info: OpenApiDocument['info'] = { title: docs.title, version: docs.version };
  if (docs.description) info.description = docs.description;
  if (docs.contact) info.contact = docs.contact;
  if (docs.license) info.license = docs.license;
  const doc = { openapi: '3.1.0', info } as OpenApiDocument;
  if (docs.servers.length) doc.servers = docs.servers;
  if (tags.length) doc.tags = tags;
  doc.paths = paths;
  doc.components = { schemas };
  if (docs.securitySchemes && Object.keys(docs.securitySchemes).length) {
    doc.components.securitySchemes = docs.securitySchemes;
  }
  return doc;
}
