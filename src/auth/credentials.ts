/**
 * Reading credentials from a request and refusing them: 401 problem+json with the
 * `WWW-Authenticate` challenge RFC 6750 describes. Nothing here ever echoes a token.
 * @module
 */
import { type KError, keelsonError } from '../errors/index.js';
import type { Context } from '../routing/context.js';

/** What a request that is refused lacked: credentials at all, a well-formed request, a good token. */
export type AuthFailure = 'missing' | 'invalid_request' | 'invalid_token';

// RFC 6750's b64token: what a bearer token may consist of.
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** The `WWW-Authenticate` value for `failure` under the `scheme` word (`Bearer`, `Token`, `ApiKey`). */
export function challenge(scheme: string, failure: AuthFailure, description?: string): string {
  if (failure === 'missing') return scheme;
  // A header value must be visible ASCII; the quoted string must not be broken by a quote.
  const text = description?.replace(/[^\x20-\x7e]|["\\]/g, '');
  const detail = text ? `, error_description="${text}"` : '';
  return `${scheme} error="${failure}"${detail}`;
}

/** A 401 KError with its challenge; `message` becomes the problem's detail. */
export function refuse(scheme: string, failure: AuthFailure, message: string): KError {
  const description = failure === 'missing' ? undefined : message;
  return unauthorizedWith(challenge(scheme, failure, description), message);
}

/** A 401 KError carrying `wwwAuthenticate` as its challenge. */
export function unauthorizedWith(wwwAuthenticate: string, message: string): KError {
  return keelsonError('UNAUTHORIZED', message, {
    headers: { 'www-authenticate': wwwAuthenticate },
  });
}

/** How many times the request carried header `name` (lower case); Node keeps only the first of some. */
export function headerCount(c: Context, name: string): number {
  const raw = c.request.raw.rawHeaders;
  let n = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === name) n++;
  return n;
}

/** Reads `<scheme> <token>` from the Authorization header: the token, undefined when absent, or throws a 401. */
export type TokenReader = (c: Context) => string | undefined;

/** A reader of `Authorization: <scheme> <token>` that refuses tokens longer than `maxLength`. */
export function authorizationReader(scheme: string, maxLength: number): TokenReader {
  const word = scheme.toLowerCase();
  return function readAuthorization(c) {
    const value = c.request.headers.authorization;
    if (value === undefined) return undefined;
    if (headerCount(c, 'authorization') > 1) {
      throw refuse(scheme, 'invalid_request', 'Send one Authorization header, not several.');
    }
    const text = value.trim();
    const space = text.indexOf(' ');
    const given = space === -1 ? text : text.slice(0, space);
    if (given.toLowerCase() !== word) {
      throw refuse(
        scheme,
        'invalid_request',
        `The Authorization header must use the ${scheme} scheme.`,
      );
    }
    const token = space === -1 ? '' : text.slice(space + 1).trim();
    if (token === '') throw refuse(scheme, 'invalid_request', `No token follows ${scheme}.`);
    if (token.length > maxLength) throw refuse(scheme, 'invalid_token', 'The token is too long.');
    if (!B64TOKEN.test(token)) throw refuse(scheme, 'invalid_token', 'The token is malformed.');
    return token;
  };
}
