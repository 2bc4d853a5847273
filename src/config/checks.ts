/**
 * The small checks resolveConfig is made of; each throws a ConfigError naming its field.
 * @module
 */

import { ConfigError } from './config-error.js';

/** The longest delay `setTimeout` honours; a longer one fires at once. */
const MAX_TIMEOUT_MS = 2_147_483_647;

/** Throws a ConfigError for `field` unless `ok`. */
export function check(ok: boolean, field: string, expected: string, value: unknown): void {
  if (!ok) throw new ConfigError(field, expected, value);
}

/** True for a non-null, non-array object. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `undefined` when absent, else the string; throws when it is not a (non-empty) string. */
export function optionalString(v: unknown, field: string, nonEmpty = false): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || (nonEmpty && v.trim() === '')) {
    throw new ConfigError(field, nonEmpty ? 'a non-empty string' : 'a string', v);
  }
  return v;
}

/** True for an absolute `http:` or `https:` URL. */
export function isHttpUrl(s: string): boolean {
  try {
    const { protocol } = new URL(s);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** True for a path like `/api`: starts with one `/` (two would be a host) and has no spaces. */
function isServerPath(s: string): boolean {
  return s.startsWith('/') && !s.startsWith('//') && !/\s/.test(s);
}

/**
 * Parses `'<url> - <description>'` or a bare `'<url>'`; `undefined` when the URL is neither an
 * absolute http(s) URL nor a path starting with `/`.
 */
export function parseServer(entry: string): { url: string; description?: string } | undefined {
  const trimmed = entry.trim();
  const match = /^(\S+)\s+-\s+(\S.*)$/.exec(trimmed);
  const url = match?.[1] ?? trimmed;
  if (!isHttpUrl(url) && !isServerPath(url)) return undefined;
  const description = match?.[2]?.trim();
  return description === undefined ? { url } : { url, description };
}

/** A delay in ms: the default when absent, else a positive integer `setTimeout` can honour. */
export function timeoutMs(v: unknown, field: string, fallback: number): number {
  const ms = v === undefined ? fallback : v;
  if (!Number.isInteger(ms) || (ms as number) <= 0 || (ms as number) > MAX_TIMEOUT_MS) {
    throw new ConfigError(field, `a positive integer of milliseconds up to ${MAX_TIMEOUT_MS}`, ms);
  }
  return ms as number;
}

/** A delay in ms that may be 0: the default when absent, else an integer `setTimeout` honours. */
export function delayMs(v: unknown, field: string, fallback: number): number {
  const ms = v === undefined ? fallback : v;
  if (!Number.isInteger(ms) || (ms as number) < 0 || (ms as number) > MAX_TIMEOUT_MS) {
    throw new ConfigError(field, `an integer of milliseconds in 0..${MAX_TIMEOUT_MS}`, ms);
  }
  return ms as number;
}
