/**
 * `keelson openapi --check-breaking <base.json>`: the app's document against a saved one.
 * @module
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { diffOpenApi, type OpenApiChange } from '../openapi-diff/index.js';
import type { CliIo } from './usage.js';

/** One change as one line: verdict, operation, location, what changed. */
export function formatChange(change: OpenApiChange): string {
  const verdict = !change.breaking
    ? 'non-breaking'
    : change.accepted
      ? `breaking (accepted: ${change.accepted})`
      : 'BREAKING';
  return `${verdict}  ${change.operation}  ${change.location}  ${change.message}`;
}

/**
 * Compares `current` with the document in `baseFile` (relative to the command's folder), prints
 * every change, breaking ones first, and resolves to 1 when one is breaking and not accepted.
 */
export async function checkBreaking(current: object, baseFile: string, io: CliIo): Promise<number> {
  const file = resolve(io.cwd, baseFile);
  let base: unknown;
  try {
    base = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read the base document ${file}: ${(err as Error).message}`);
  }
  if (typeof base !== 'object' || base === null || !('paths' in base)) {
    throw new Error(`${file} is not an OpenAPI document (no "paths")`);
  }
  const changes = diffOpenApi(base, current);
  const open = changes.filter((c) => c.breaking && !c.accepted);
  const rank = (c: OpenApiChange) => (c.breaking ? (c.accepted ? 1 : 0) : 2);
  for (const change of [...changes].sort((a, b) => rank(a) - rank(b))) io.out(formatChange(change));
  const others = changes.length - open.length;
  io.err(
    changes.length === 0
      ? `no change against ${baseFile}`
      : `${open.length} breaking change${open.length === 1 ? '' : 's'}, ${others} other${others === 1 ? '' : 's'} against ${baseFile}`,
  );
  return open.length > 0 ? 1 : 0;
}
