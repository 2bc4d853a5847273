/** How many `cause` links `describeError` follows before it says how many it left out. */
export const MAX_CAUSE_DEPTH = 8;

/**
 * A one-string account of a thrown value for the log: its stack, else its message, then its
 * `cause` chain, one `caused by:` a link. A cause seen before (a cycle) is named, not printed
 * again, and past MAX_CAUSE_DEPTH links the rest are counted, so no chain makes a huge line.
 */
export function describeError(error: unknown): string {
  let out = describeOne(error);
  const seen = new Set<unknown>([error]);
  let current = error;
  for (let depth = 1; hasCause(current); depth++) {
    const cause = current.cause;
    if (seen.has(cause)) return `${out}\ncaused by: [circular: a cause printed above]`;
    if (depth > MAX_CAUSE_DEPTH) {
      return `${out}\ncaused by: [${countCauses(current, seen)} more causes not printed]`;
    }
    seen.add(cause);
    out += `\ncaused by: ${describeOne(cause)}`;
    current = cause;
  }
  return out;
}

function hasCause(value: unknown): value is Error & { cause: unknown } {
  try {
    return value instanceof Error && value.cause !== undefined;
  } catch {
    return false;
  }
}

function describeOne(error: unknown): string {
  try {
    if (error instanceof Error) {
      return typeof error.stack === 'string' ? error.stack : `${error.name}: ${error.message}`;
    }
    return typeof error === 'string' ? error : String(error);
  } catch {
    return 'an unprintable value';
  }
}

// The causes left from `from` on, stopping at a cycle or after a bounded walk.
function countCauses(from: unknown, seen: Set<unknown>): string {
  let count = 0;
  let current = from;
  while (hasCause(current) && !seen.has(current.cause) && count < 1000) {
    seen.add(current.cause);
    current = current.cause;
    count++;
  }
  return count >= 1000 ? '1000+' : String(count);
}
