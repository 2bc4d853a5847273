/**
 * Cookies on @fastify/cookie: `c.cookies`, `c.setCookie`, `c.clearCookie` and signed cookies.
 * The plugin is registered with `hook: false`: no request parses its `Cookie` header until a
 * handler reads `c.cookies` (or a route validates its cookies), so routes that never touch
 * cookies pay only the plugin's `onSend` check.
 * @module
 */
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EnginePlugin } from '../engine/plugin.js';

/** The cookie settings of an App (`cookies` in AppOptions). */
export interface CookiesOptions {
  /**
   * Secret(s) that sign cookies set with `{ signed: true }`. Several secrets rotate keys: the
   * first signs, every one verifies. Each must be at least 32 characters.
   */
  secret?: string | readonly string[];
}

/** Attributes of a cookie set with `c.setCookie`. */
export interface CookieOptions {
  /** The `Domain` attribute. @default none (the host only) */
  domain?: string;
  /** The `Path` attribute. @default '/' */
  path?: string;
  /** The `Expires` attribute. */
  expires?: Date;
  /** The `Max-Age` attribute, in seconds. */
  maxAge?: number;
  /** The `HttpOnly` attribute. @default true */
  httpOnly?: boolean;
  /** The `Secure` attribute. @default true in production, false otherwise */
  secure?: boolean;
  /** The `SameSite` attribute. @default 'lax' */
  sameSite?: 'lax' | 'strict' | 'none';
  /** The `Partitioned` attribute (CHIPS). */
  partitioned?: boolean;
  /** The `Priority` attribute. */
  priority?: 'low' | 'medium' | 'high';
  /** Signs the value with the app's `cookies.secret`; read it back with `c.signedCookie`. */
  signed?: boolean;
}

const MIN_SECRET_LENGTH = 32;

/** The secrets of the `cookies` option, checked. @throws TypeError naming the bad one */
export function secretsOf(secret: CookiesOptions['secret']): string[] | undefined {
  if (secret === undefined) return undefined;
  const list = typeof secret === 'string' ? [secret] : Array.isArray(secret) ? [...secret] : null;
  if (!list || list.length === 0) {
    throw new TypeError('cookies.secret must be a string or a non-empty array of strings');
  }
  for (const [i, s] of list.entries()) {
    if (typeof s !== 'string' || s.length < MIN_SECRET_LENGTH) {
      throw new TypeError(
        `cookies.secret${typeof secret === 'string' ? '' : `[${i}]`} must be a string of at least ${MIN_SECRET_LENGTH} characters, got ${typeof s === 'string' ? `${s.length} characters` : typeof s}`,
      );
    }
  }
  return list;
}

/**
 * The registration of @fastify/cookie for an App: checks the secrets now (throws naming the
 * field) and gives every `setCookie` the defaults HttpOnly, SameSite=Lax, Path=/ and Secure
 * in production.
 */
export function cookiesPlugin({ secret }: CookiesOptions = {}, isProduction = false): EnginePlugin {
  const secrets = secretsOf(secret);
  // The plugin merges parseOptions into the options of every setCookie and clearCookie.
  const defaults = { httpOnly: true, sameSite: 'lax', path: '/', secure: isProduction } as const;
  return async function registerCookies(fastify: FastifyInstance): Promise<void> {
    await fastify.register(fastifyCookie, {
      hook: false,
      parseOptions: defaults,
      ...(secrets ? { secret: secrets } : {}),
    });
  };
}

/** The request's cookies, parsed from its `Cookie` header at the first call and kept on the request. */
export function readCookies(request: FastifyRequest): Record<string, string | undefined> {
  if (request.cookies) return request.cookies;
  const header = request.headers.cookie;
  // Where the plugin keeps them too; it parses again only if a handler sets a cookie.
  request.cookies = header ? request.server.parseCookie(header) : {};
  return request.cookies;
}

function assertSigner(reply: FastifyReply, what: string): void {
  if (typeof reply.signCookie !== 'function') {
    throw new Error(`${what} needs a secret: pass cookies: { secret } to new App()`);
  }
}

/** Adds a `Set-Cookie` to the reply; `{ signed: true }` signs the value. */
export function setCookie(
  reply: FastifyReply,
  name: string,
  value: string,
  options?: CookieOptions,
): void {
  if (options?.signed) assertSigner(reply, `the signed cookie "${name}"`);
  reply.setCookie(name, value, options);
}

/** Adds a `Set-Cookie` that deletes `name`; give the `path`/`domain` it was set with. */
export function clearCookie(
  reply: FastifyReply,
  name: string,
  options?: Pick<CookieOptions, 'domain' | 'path'>,
): void {
  reply.clearCookie(name, options);
}

/** The value of a signed cookie, or undefined when absent, unsigned or tampered with. */
export function signedCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  name: string,
): string | undefined {
  assertSigner(reply, `c.signedCookie("${name}")`);
  const raw = readCookies(request)[name];
  if (typeof raw !== 'string') return undefined;
  const result = request.unsignCookie(raw);
  return result.valid && result.value !== null ? result.value : undefined;
}
