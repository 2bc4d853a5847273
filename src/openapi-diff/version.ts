/**
 * The semver rule that accepts breaking changes: a raised major version (minor for `0.x`).
 * @module
 */
import { type Json, objectOf } from './json.js';

function parts(doc: Json): [number, number] | undefined {
  const version = objectOf(doc.info).version;
  const match = typeof version === 'string' ? /^v?(\d+)\.(\d+)/.exec(version) : null;
  return match ? [Number(match[1]), Number(match[2])] : undefined;
}

/**
 * `info.version 1.4.0 → 2.0.0` when the current document's version raises the base's major
 * (its minor when the major is 0, as semver reads `0.x`); otherwise undefined.
 */
export function majorBump(base: Json, current: Json): string | undefined {
  const b = parts(base);
  const c = parts(current);
  if (!b || !c) return undefined;
  const raised = b[0] === 0 && c[0] === 0 ? c[1] > b[1] : c[0] > b[0];
  if (!raised) return undefined;
  const show = (doc: Json) => String(objectOf(doc.info).version);
  return `info.version ${show(base)} → ${show(current)}`;
}
