/**
 * Breaking changes between two OpenAPI 3.1 documents: pure functions over plain JSON, for
 * `keelson openapi --check-breaking` and for tests (`keelson/testing`).
 * @module
 */
import type { Found } from './context.js';
import { child, isObject, type Json, objectOf } from './json.js';
import { compareOperation, type OperationAt } from './operation.js';
import { unchangedRefs } from './same.js';
import type { DiffOpenApiOptions, OpenApiChange } from './types.js';
import { majorBump } from './version.js';

export type { ChangeCode, DiffOpenApiOptions, OpenApiChange } from './types.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

// `/users/{id}` and `/users/{userId}` are one path to a client.
const shape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

function operationsOf(doc: Json): Map<string, OperationAt> {
  const found = new Map<string, OperationAt>();
  for (const [path, raw] of Object.entries(objectOf(doc.paths))) {
    const item = objectOf(raw);
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const at = child('#/paths', path, method);
      found.set(`${method} ${shape(path)}`, { op, at, item, path });
    }
  }
  return found;
}

function nameOf(o: OperationAt): string {
  const method = o.at.slice(o.at.lastIndexOf('/') + 1).toUpperCase();
  const id = typeof o.op.operationId === 'string' ? ` (${o.op.operationId})` : '';
  return `${method} ${o.path}${id}`;
}

/**
 * Every change from `base` (e.g. the committed `openapi.json`) to `current` (the app's document
 * now), each marked breaking or not and naming its operation and JSON location: removed
 * operations, responses and media types; added required parameters and request fields; types,
 * enums and bounds narrowed in a request or widened in a response; response fields removed or
 * made optional. `$ref`s are followed into each document's components.
 * @example diffOpenApi(JSON.parse(readFileSync('openapi.json', 'utf8')), await app.openapi())
 */
export function diffOpenApi(
  base: object,
  current: object,
  { semver = true }: DiffOpenApiOptions = {},
): OpenApiChange[] {
  const b = base as Json;
  const c = current as Json;
  const changes: OpenApiChange[] = [];
  const keys = new Set<string>();
  const add = (operation: string, found: Found) => {
    const key = `${operation}|${found.code}|${found.location}|${found.message}`;
    if (keys.has(key)) return;
    keys.add(key);
    changes.push({ ...found, operation });
  };
  const unchanged = unchangedRefs(b, c);
  const bOps = operationsOf(b);
  const cOps = operationsOf(c);
  for (const [key, was] of bOps) {
    const now = cOps.get(key);
    if (!now) {
      const message = 'operation removed';
      add(nameOf(was), { breaking: true, code: 'operation-removed', location: was.at, message });
      continue;
    }
    const report = (found: Found) => add(nameOf(now), found);
    compareOperation({ base: b, current: c, report, seen: new Set(), unchanged }, was, now);
  }
  for (const [key, now] of cOps) {
    if (bOps.has(key)) continue;
    const message = 'operation added';
    add(nameOf(now), { breaking: false, code: 'operation-added', location: now.at, message });
  }
  const bump = semver ? majorBump(b, c) : undefined;
  return bump
    ? changes.map((change) => (change.breaking ? { ...change, accepted: bump } : change))
    : changes;
}

/**
 * The breaking changes from `base` to `current` that are not accepted (by a major version bump):
 * `[]` when every client of `base` still works.
 * @example expect(breakingChanges(saved, await app.openapi())).toEqual([]);
 */
export function breakingChanges(
  base: object,
  current: object,
  options: DiffOpenApiOptions = {},
): OpenApiChange[] {
  return diffOpenApi(base, current, options).filter((c) => c.breaking && !c.accepted);
}
