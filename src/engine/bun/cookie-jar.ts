/**
 * What the Bun engine asks of cookies: the cookies feature implements it (src/cookies/jar.ts)
 * and the App hands it to the engine, so the engine loads no feature.
 * @module
 */

/** The `Set-Cookie` values a reply will send, by name, domain and path (a later one replaces). */
export type PendingCookies = Map<string, string>;

/** Options of one cookie, as `c.setCookie()` takes them. */
export interface JarCookieOptions {
  readonly domain?: string;
  readonly path?: string;
  readonly expires?: Date;
  readonly maxAge?: number;
  readonly httpOnly?: boolean;
  readonly secure?: boolean;
  readonly sameSite?: 'lax' | 'strict' | 'none';
  readonly partitioned?: boolean;
  readonly priority?: 'low' | 'medium' | 'high';
  readonly signed?: boolean;
}

/** Parses, sets, clears and unsigns cookies with the app's `cookies` option. */
export interface CookieJar {
  /** The cookies of a `Cookie` header. */
  parse(header: string | undefined): Record<string, string | undefined>;
  /** Adds a cookie to `pending`. */
  set(pending: PendingCookies, name: string, value: string, options?: JarCookieOptions): void;
  /** Adds a cookie that deletes `name` to `pending`. */
  clear(
    pending: PendingCookies,
    name: string,
    options?: Pick<JarCookieOptions, 'domain' | 'path'>,
  ): void;
  /** Signs a value; undefined when the app has no secret. */
  readonly sign: ((value: string) => string) | undefined;
  /** Checks a signed value; undefined when the app has no secret. */
  readonly unsign: ((value: string) => { valid: boolean; value: string | null }) | undefined;
}
