/**
 * Secrets out of the config the dev panel shows.
 * @module
 */

/** A key whose value the panel never shows. */
const SECRET_KEY = /token|secret|password|passwd|key|credential/i;

const MASK = '••••••';

/**
 * A JSON-safe copy of `value` with the value of every key matching SECRET_KEY masked, at any
 * depth, and the password of any URL with credentials masked; functions and cycles are left out.
 */
export function maskSecrets(value: unknown, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return maskUrl(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[cycle]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v, seen));
  if (value instanceof Date) return value.toISOString();
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === 'function') continue;
    out[key] = SECRET_KEY.test(key) && v !== undefined && v !== '' ? MASK : maskSecrets(v, seen);
  }
  return out;
}

// postgres://user:pass@host/db → postgres://user:••••••@host/db, wherever in the string.
function maskUrl(s: string): string {
  return s.replace(/\b([a-z][a-z0-9+.-]*:\/\/[^:/@\s]*:)[^@\s/]+@/gi, `$1${MASK}@`);
}
