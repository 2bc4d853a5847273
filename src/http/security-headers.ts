import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/** The security headers `options` give, worked out once, or undefined when they vary per request. */
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
