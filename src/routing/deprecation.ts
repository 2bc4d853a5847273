/**
 * Deprecated routes: what a route or a group declares, and the response headers it gives —
 * `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and `Link` to the successor and to the notes.
 * @module
 */
import { defaultOperationId } from '../docs/operation-id.js';
import type { Scope } from './table.js';
import type { Deprecation, DeprecationDetails, HttpMethod, RouteDef } from './types.js';

export type { Deprecation, DeprecationDetails } from './types.js';

/** The headers a deprecated route answers with, names in lower case. */
export type DeprecationHeaders = Readonly<Record<string, string>>;

/** The deprecation a route's scope chain declares: the innermost group's that says. */
export function scopeDeprecation(scope: Scope): Deprecation | undefined {
  for (let s: Scope | undefined = scope; s; s = s.parent) {
    if (s.deprecated !== undefined) return s.deprecated;
  }
  return undefined;
}

/** The route's effective deprecation, its own value first, or undefined when it is not deprecated. */
export function effectiveDeprecation(
  own: Deprecation | undefined,
  scope: Scope,
): DeprecationDetails | undefined {
  const value = own ?? scopeDeprecation(scope);
  if (value === undefined || value === false) return undefined;
  return value === true ? {} : value;
}

/** The version a route's scope chain belongs to, if any. */
export function scopeVersion(scope: Scope): string | undefined {
  for (let s: Scope | undefined = scope; s; s = s.parent) {
    if (s.version !== undefined) return s.version;
  }
  return undefined;
}

/**
 * Checks a `deprecated` option where it is given (`where` names it in the error): a boolean, or
 * an object of valid Dates and strings with a sunset not before the deprecation.
 */
export function checkDeprecation(value: unknown, where: string): Deprecation | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError(
      `${where}: deprecated must be true, false or { since?, sunset?, link?, info? }`,
    );
  }
  const d = value as Record<string, unknown>;
  for (const key of ['since', 'sunset'] as const) {
    const date = d[key];
    if (date !== undefined && !(date instanceof Date && Number.isFinite(date.getTime()))) {
      throw new TypeError(`${where}: deprecated.${key} must be a valid Date`);
    }
  }
  for (const key of ['link', 'info'] as const) {
    const url = d[key];
    if (url !== undefined && (typeof url !== 'string' || !url || /[\s<>]/.test(url))) {
      throw new TypeError(`${where}: deprecated.${key} must be a URL without spaces or <>`);
    }
  }
  const { since, sunset } = d as DeprecationDetails;
  if (since && sunset && sunset.getTime() < since.getTime()) {
    throw new TypeError(
      `${where}: deprecated.sunset must not be earlier than deprecated.since (RFC 9745)`,
    );
  }
  return value as DeprecationDetails;
}

/**
 * The response headers of a deprecated route, computed once when it is mounted (`now` stands
 * for `since` when none is given, capped at the sunset so the sunset is never the earlier).
 */
export function deprecationHeaders(d: DeprecationDetails, now: Date): DeprecationHeaders {
  let since = d.since ?? now;
  if (!d.since && d.sunset && d.sunset.getTime() < since.getTime()) since = d.sunset;
  const headers: Record<string, string> = {
    deprecation: `@${Math.floor(since.getTime() / 1000)}`,
  };
  if (d.sunset) headers.sunset = d.sunset.toUTCString();
  const links: string[] = [];
  if (d.link) links.push(`<${d.link}>; rel="successor-version"`);
  if (d.info) links.push(`<${d.info}>; rel="deprecation"`);
  if (links.length) headers.link = links.join(', ');
  return headers;
}

/** What a deprecated route does on each call: the headers it sets and the name it is counted by. */
export interface DeprecatedCall {
  /** The response headers, lower-case names. */
  readonly headers: DeprecationHeaders;
  /** The operation's name for the metric and the log line: its operationId. */
  readonly operation: string;
}

/** How a route of the table answers as deprecated, or undefined when it is not. Checks the option. */
export function deprecatedCall(
  entry: {
    readonly method: HttpMethod;
    readonly path: string;
    readonly def: RouteDef;
    readonly scope: Scope;
  },
  now: Date,
): DeprecatedCall | undefined {
  const where = `route ${entry.method} ${entry.path}`;
  const details = effectiveDeprecation(
    checkDeprecation(entry.def.options.deprecated, where),
    entry.scope,
  );
  if (!details) return undefined;
  return {
    headers: deprecationHeaders(details, now),
    operation: entry.def.options.operationId ?? defaultOperationId(entry.method, entry.path),
  };
}
