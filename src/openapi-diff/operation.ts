/**
 * Comparing one operation: its parameters, its request body and its responses.
 * @module
 */
import { compareContent, compareHeaders, contextFor } from './content.js';
import type { Found, SchemaContext } from './context.js';
import { child, isObject, type Json, objectOf, resolve } from './json.js';
import { compareSchema } from './schema.js';

/** One operation in one document: the operation and its path item, with their pointers. */
export interface OperationAt {
  /** The operation object. */
  readonly op: Json;
  /** Its pointer: `#/paths/~1users/get`. */
  readonly at: string;
  /** The path item, for the parameters every operation of the path shares. */
  readonly item: Json;
  /** The path template, for the position of each path parameter. */
  readonly path: string;
}

type Shared = Omit<SchemaContext, 'direction' | 'subject' | 'fieldWord'>;

/** Reports every change from the base operation to the current one. */
export function compareOperation(shared: Shared, b: OperationAt, c: OperationAt): void {
  compareParameters(shared, b, c);
  compareBody(shared, b, c);
  compareResponses(shared, b, c);
  if (b.op.deprecated !== true && c.op.deprecated === true) {
    const location = child(c.at, 'deprecated');
    const message = 'operation deprecated';
    shared.report({ breaking: false, code: 'operation-deprecated', location, message });
  }
}

interface Param {
  readonly value: Json;
  readonly at: string;
  readonly label: string;
}

// Path parameters are keyed by their place in the template, so renaming `{id}` to `{userId}`
// is no change; the others by where they go and their name (header names in any case).
function parametersOf(doc: Json, o: OperationAt): Map<string, Param> {
  const places = [...o.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const found = new Map<string, Param>();
  const add = (list: unknown, at: string) => {
    if (!Array.isArray(list)) return;
    list.forEach((raw, i) => {
      const { value, at: where } = resolve(doc, raw, child(at, 'parameters', i));
      const name = String(value.name);
      const place = String(value.in);
      const key =
        place === 'path'
          ? `path#${places.indexOf(name)}`
          : `${place}:${place === 'header' ? name.toLowerCase() : name}`;
      found.set(key, { value, at: where, label: `${place} parameter ${name}` });
    });
  };
  add(o.item.parameters, o.at.slice(0, o.at.lastIndexOf('/')));
  add(o.op.parameters, o.at);
  return found;
}

function compareParameters(shared: Shared, b: OperationAt, c: OperationAt): void {
  const bp = parametersOf(shared.base, b);
  const cp = parametersOf(shared.current, c);
  const report = (change: Found) => shared.report(change);
  for (const [key, was] of bp) {
    const now = cp.get(key);
    if (!now) {
      // A request that sends it is still valid; the server ignores what it carried.
      const message = `${was.label} removed (now ignored)`;
      report({ breaking: false, code: 'parameter-removed', location: was.at, message });
      continue;
    }
    const ctx = contextFor(shared, 'request', now.label, `${now.label} field`);
    compareSchema(
      ctx,
      was.value.schema ?? {},
      child(was.at, 'schema'),
      now.value.schema ?? {},
      child(now.at, 'schema'),
    );
    const wasRequired = was.value.required === true;
    const isRequired = now.value.required === true;
    if (wasRequired !== isRequired) {
      report({
        breaking: isRequired,
        code: isRequired ? 'parameter-required' : 'parameter-optional',
        location: child(now.at, 'required'),
        message: `${now.label} made ${isRequired ? 'required' : 'optional'}`,
      });
    }
  }
  for (const [key, now] of cp) {
    if (bp.has(key)) continue;
    const required = now.value.required === true;
    report({
      breaking: required,
      code: 'parameter-added',
      location: now.at,
      message: `${required ? 'required' : 'optional'} ${now.label} added`,
    });
  }
}

function compareBody(shared: Shared, b: OperationAt, c: OperationAt): void {
  const has = (o: OperationAt) => isObject(o.op.requestBody);
  const body = (doc: Json, o: OperationAt) =>
    resolve(doc, o.op.requestBody, child(o.at, 'requestBody'));
  if (!has(b) && !has(c)) return;
  if (!has(c)) {
    const { at } = body(shared.base, b);
    const message = 'request body removed (now ignored)';
    shared.report({ breaking: false, code: 'body-removed', location: at, message });
    return;
  }
  const now = body(shared.current, c);
  const isRequired = now.value.required === true;
  if (!has(b)) {
    shared.report({
      breaking: isRequired,
      code: 'body-added',
      location: now.at,
      message: `${isRequired ? 'required' : 'optional'} request body added`,
    });
    return;
  }
  const was = body(shared.base, b);
  if ((was.value.required === true) !== isRequired) {
    shared.report({
      breaking: isRequired,
      code: isRequired ? 'body-required' : 'body-optional',
      location: child(now.at, 'required'),
      message: `request body made ${isRequired ? 'required' : 'optional'}`,
    });
  }
  const ctx = contextFor(shared, 'request', 'request body');
  compareContent(ctx, { base: was.value, baseAt: was.at, current: now.value, currentAt: now.at });
}

function compareResponses(shared: Shared, b: OperationAt, c: OperationAt): void {
  const byStatus = (o: OperationAt) =>
    new Map(Object.keys(objectOf(o.op.responses)).map((s) => [s.toUpperCase(), s]));
  const bs = byStatus(b);
  const cs = byStatus(c);
  const at = (o: OperationAt, status: string) => child(o.at, 'responses', status);
  for (const [key, status] of bs) {
    const now = cs.get(key);
    if (now === undefined) {
      // An error status folded into its range (`404` into `4XX`) or into `default` (a range
      // too) is still described.
      const range = /^[45](\d\d|XX)$/.test(key) ? `${key[0]}XX` : undefined;
      const cover =
        range && cs.has(range) ? range : cs.has('DEFAULT') && range ? 'default' : undefined;
      shared.report({
        breaking: cover === undefined,
        code: 'response-removed',
        location: at(b, status),
        message: `response ${status} removed${cover ? ` (still covered by ${cover})` : ''}`,
      });
      continue;
    }
    const was = resolve(shared.base, objectOf(b.op.responses)[status], at(b, status));
    const is = resolve(shared.current, objectOf(c.op.responses)[now], at(c, now));
    const ctx = contextFor(shared, 'response', `response ${now}`);
    const pair = { base: was.value, baseAt: was.at, current: is.value, currentAt: is.at };
    compareContent(ctx, pair);
    compareHeaders(ctx, pair);
  }
  for (const [key, status] of cs) {
    if (bs.has(key)) continue;
    const message = `response ${status} added`;
    shared.report({ breaking: false, code: 'response-added', location: at(c, status), message });
  }
}
