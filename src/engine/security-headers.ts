import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The security headers OWASP's REST Security Cheat Sheet gives for API answers: the rest of
 * helmet's set only matters when a browser renders the answer as a document.
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
});

/** helmet's defaults less `upgrade-insecure-requests`, which breaks a page served over plain http. */
export const DEFAULT_HELMET: Readonly<HelmetOptions> = Object.freeze({
  contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
});

/** The security headers of an app, worked out once at startup. */
export interface SecurityHeaders {
  /** Headers for every answer. */
  readonly api: Readonly<Record<string, string>>;
  /** Headers for the HTML docs page and its assets. */
  readonly page: Readonly<Record<string, string>>;
  /** helmet options to run per request, when they hold per-request CSP directive functions. */
  readonly perRequest: Readonly<HelmetOptions> | undefined;
}

/**
 * The security headers for the App's `helmet` option: by default the OWASP API set on answers
 * and helmet's set on the docs page; helmet's set with the given options on every answer when
 * options are given; none for `false`.
 */
export function securityHeadersFor(
  option: Readonly<HelmetOptions> | false | undefined,
): SecurityHeaders {
  if (option === false) return { api: {}, page: {}, perRequest: undefined };
  if (option === undefined) {
    return {
      api: API_SECURITY_HEADERS,
      page: staticSecurityHeaders(DEFAULT_HELMET)!,
      perRequest: undefined,
    };
  }
  const headers = staticSecurityHeaders(option);
  if (!headers) return { api: {}, page: {}, perRequest: option };
  return { api: headers, page: headers, perRequest: undefined };
}

/** The headers helmet sets for `options`, or undefined when they vary per request. */
export function staticSecurityHeaders(
  options: Readonly<HelmetOptions>,
): Readonly<Record<string, string>> | undefined {
  if (hasDirectiveFunctions(options)) return undefined;
  const headers: Record<string, string> = {};
  // helmet is a Connect middleware; a stand-in response records what it sets.
  const recorder = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet({ ...options })(
    {} as IncomingMessage,
    recorder as unknown as ServerResponse,
    (err?: unknown) => {
      failure = err;
    },
  );
  if (failure) throw failure;
  return Object.freeze(headers);
}

function hasDirectiveFunctions(options: Readonly<HelmetOptions>): boolean {
  const csp = options.contentSecurityPolicy;
  if (!csp || typeof csp !== 'object' || !csp.directives) return false;
  for (const value of Object.values(csp.directives)) {
    if (value && typeof value === 'object' && Symbol.iterator in value) {
      for (const item of value as Iterable<unknown>) if (typeof item === 'function') return true;
    }
  }
  return false;
}
