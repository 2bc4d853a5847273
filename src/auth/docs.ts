/**
 * What a guard declares to the OpenAPI document: its 401, its requirement and its scheme.
 * @module
 */
import type { DocsSecurityScheme } from '../config/index.js';
import type { MiddlewareDocs } from '../routing/middleware-docs.js';

/** Options every guard takes. */
export interface GuardOptions {
  /** Lets a request without credentials through with `c.user` undefined; bad ones are still a 401. @default false */
  optional?: boolean;
  /**
   * The name of the security scheme in the OpenAPI document; two guards that check differently
   * need two names. @default 'bearerAuth' (`<scheme>Auth` for another scheme word; for apiKey,
   * the header's: `x-api-key` → `apiKeyAuth`, `x-partner-key` → `partnerKeyAuth`)
   */
  securityScheme?: string;
}

/**
 * The default scheme name of an apiKey guard reading `header`: its words in camel case, without
 * the `x-` prefix, then `Auth`.
 * @example apiKeySchemeName('x-partner-key') // 'partnerKeyAuth'
 */
export function apiKeySchemeName(header: string): string {
  const words = header
    .toLowerCase()
    .replace(/^x-/, '')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const camel = words.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1)));
  return `${camel.join('') || 'apiKey'}Auth`;
}

/** The docs of a guard that answers 401 with `challengeScheme` and is met by `scheme`. */
export function guardDocs(
  name: string,
  scheme: DocsSecurityScheme,
  challengeScheme: string,
  optional: boolean,
): MiddlewareDocs {
  return {
    responses: {
      401: {
        description: optional
          ? 'The credentials are not valid'
          : 'Credentials are missing or not valid',
        headers: {
          'WWW-Authenticate': { description: `The ${challengeScheme} challenge (RFC 6750)` },
        },
        codes: ['UNAUTHORIZED'],
      },
    },
    security: optional ? [{ [name]: [] }, {}] : [{ [name]: [] }],
    securitySchemes: { [name]: scheme },
  };
}

/** The security scheme and its default name for `Authorization: <scheme> <token>`. */
export function authorizationScheme(
  scheme: string,
  jwt: boolean,
): { name: string; scheme: DocsSecurityScheme } {
  if (scheme.toLowerCase() === 'bearer') {
    return { name: 'bearerAuth', scheme: { type: 'http', scheme: 'bearer' } };
  }
  return {
    name: `${scheme.toLowerCase()}Auth`,
    scheme: {
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
      description: `Authorization: ${scheme} <${jwt ? 'JWT' : 'token'}>`,
    },
  };
}
