/**
 * `bearer()` for opaque tokens and `apiKey()` for keys in a header: the service checks them.
 * @module
 */
import type { Context } from '../routing/context.js';
import type { Guard } from '../routing/guarded.js';
import { describeMiddleware } from '../routing/middleware-docs.js';
import { authorizationReader, headerCount, refuse, unauthorizedWith } from './credentials.js';
import { apiKeySchemeName, authorizationScheme, type GuardOptions, guardDocs } from './docs.js';
import { checkScheme } from './scheme.js';

/** Checks a credential: the user it belongs to, or undefined when it is not valid. */
export type Verify<U> = (credential: string, c: Context) => U | undefined | Promise<U | undefined>;

/** Options of `bearer()`. */
export interface BearerOptions<U> extends GuardOptions {
  /** Checks the token: the user, or undefined to answer 401. */
  verify: Verify<U>;
  /** The word before the token. @default 'Bearer' */
  scheme?: string;
  /** Longer tokens are refused without calling `verify`. @default 8192 */
  maxTokenLength?: number;
}

/**
 * A guard for opaque tokens in `Authorization: Bearer <token>`: `verify` turns the token into
 * the user (`c.user`) or undefined (401 `invalid_token`).
 * @example const auth = bearer({ verify: (token) => sessions.get(token) });
 */
export function bearer<U>(options: BearerOptions<U> & { optional: true }): Guard<U | undefined>;
export function bearer<U>(options: BearerOptions<U>): Guard<U>;
export function bearer<U>({
  verify,
  optional = false,
  scheme = 'Bearer',
  maxTokenLength = 8192,
  securityScheme,
}: BearerOptions<U>): Guard<U> {
  checkScheme(scheme, 'bearer');
  checkVerify(verify, 'bearer');
  const read = authorizationReader(scheme, maxTokenLength);
  const docs = authorizationScheme(scheme, false);
  return describeMiddleware(
    async function bearerGuard(c, next) {
      const token = read(c);
      if (token === undefined) {
        if (optional) return next();
        throw refuse(scheme, 'missing', 'A token is required.');
      }
      const user = await verify(token, c);
      if (user === undefined) throw refuse(scheme, 'invalid_token', 'The token is not valid.');
      c.user = user;
      return next();
    },
    guardDocs(securityScheme ?? docs.name, docs.scheme, scheme, optional),
  );
}

/** Options of `apiKey()`. */
export interface ApiKeyOptions<U> extends GuardOptions {
  /** Checks the key: the user, or undefined to answer 401. */
  verify: Verify<U>;
  /** The header that carries the key. @default 'x-api-key' */
  header?: string;
  /** Longer keys are refused without calling `verify`. @default 1024 */
  maxKeyLength?: number;
}

// The challenge of a key in a header: not an HTTP auth scheme, but a 401 must name one.
const API_KEY = 'ApiKey';

/**
 * A guard for a key in a header (`x-api-key` by default): `verify` turns the key into the user
 * (`c.user`) or undefined (401).
 * @example const service = apiKey({ verify: (key) => keys.get(key) });
 */
export function apiKey<U>(options: ApiKeyOptions<U> & { optional: true }): Guard<U | undefined>;
export function apiKey<U>(options: ApiKeyOptions<U>): Guard<U>;
export function apiKey<U>({
  verify,
  header = 'x-api-key',
  optional = false,
  maxKeyLength = 1024,
  securityScheme,
}: ApiKeyOptions<U>): Guard<U> {
  checkVerify(verify, 'apiKey');
  const name = header.toLowerCase();
  const challenge = `${API_KEY} header="${name}"`;
  const fail = (message: string) => unauthorizedWith(challenge, message);
  return describeMiddleware(
    async function apiKeyGuard(c, next) {
      const value = c.request.headers[name];
      if (value === undefined) {
        if (optional) return next();
        throw fail(`An API key is required in the ${name} header.`);
      }
      if (typeof value !== 'string' || headerCount(c, name) > 1) {
        throw fail(`Send one ${name} header, not several.`);
      }
      const key = value.trim();
      if (key === '' || key.length > maxKeyLength) throw fail('The API key is not valid.');
      const user = await verify(key, c);
      if (user === undefined) throw fail('The API key is not valid.');
      c.user = user;
      return next();
    },
    guardDocs(
      securityScheme ?? apiKeySchemeName(name),
      { type: 'apiKey', in: 'header', name },
      API_KEY,
      optional,
    ),
  );
}

function checkVerify(verify: unknown, guard: string): void {
  if (typeof verify !== 'function') {
    throw new TypeError(`${guard}(): verify must be a function, got ${typeof verify}`);
  }
}
