// Tells a thrown value Keelson built from one a test (a service) built, by its stack: what the
// problem-code check (problem-codes.ts) needs to leave a service's own codes alone.
import { fileURLToPath } from 'node:url';

/** The repository root, with a trailing slash. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = `${ROOT}src/`;
const ERRORS = `${SRC}errors/`;

/** The files of a stack's frames, top first. */
function framesOf(error: unknown): string[] {
  let stack: unknown;
  try {
    stack = (error as { stack?: unknown } | null)?.stack;
  } catch {
    return [];
  }
  if (typeof stack !== 'string') return [];
  const files: string[] = [];
  for (const line of stack.split('\n')) {
    const m = /^\s+at (?:.*\()?(?:file:\/\/)?(\/[^():]+):\d+:\d+\)?$/.exec(line);
    if (m) files.push(m[1]!);
  }
  return files;
}

/** Where the value was built, when it was Keelson's doing; undefined for the test's own. */
export function keelsonSite(error: unknown): string | undefined {
  const files = framesOf(error).filter((f) => !f.startsWith(ERRORS));
  const first = files[0];
  if (first === undefined) return undefined;
  if (first.startsWith(SRC)) return first.slice(ROOT.length);
  // Built inside a dependency: the engine's own error, unless a test called that dependency.
  if (first.includes('/node_modules/') && !files.some((f) => !f.includes('/node_modules/'))) {
    return first.slice(first.lastIndexOf('/node_modules/') + 1);
  }
  return undefined;
}
