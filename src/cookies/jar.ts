/**
 * Cookies for an engine with no cookie plugin (the Bun engine), with @fastify/cookie's rules:
 * the same parser and serializer (the `cookie` package it uses), the same signer, the App's
 * defaults merged into each cookie's options, and a later cookie of the same name, domain and
 * path replacing an earlier one.
 * @module
 */
import { Signer } from '@fastify/cookie';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { CookieJar, PendingCookies } from '../engine/bun/cookie-jar.js';
import { type CookieOptions, type CookiesOptions, secretsOf } from './index.js';

type Attributes = Parameters<typeof stringifySetCookie>[0];

/** The cookie jar of an app, from its `cookies` option. @throws TypeError on a bad secret */
export function cookieJar(options: CookiesOptions | undefined, isProduction: boolean): CookieJar {
  const secrets = secretsOf(options?.secret);
  const signer = secrets ? new Signer(secrets, 'sha256') : undefined;
  const defaults = { httpOnly: true, sameSite: 'lax', path: '/', secure: isProduction } as const;
  const add = (pending: PendingCookies, name: string, value: string, given: CookieOptions) => {
    const { signed, ...attributes } = { ...defaults, ...given };
    const text = signed && signer ? signer.sign(value) : value;
    const key = `${name};${attributes.domain};${attributes.path || '/'}`;
    pending.set(key, stringifySetCookie({ name, value: text, ...attributes } as Attributes));
  };
  return {
    parse: (header) => (header ? parseCookie(header) : {}),
    set: (pending, name, value, given) => add(pending, name, value, given ?? {}),
    clear: (pending, name, given) =>
      add(pending, name, '', {
        path: '/',
        ...given,
        expires: new Date(0),
        maxAge: 0,
        signed: false,
      }),
    sign: signer ? (value) => signer.sign(value) : undefined,
    unsign: signer
      ? (value) => {
          const result = signer.unsign(value);
          return { valid: result.valid, value: result.value };
        }
      : undefined,
  };
}
