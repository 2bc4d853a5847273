/**
 * Refresh tokens with rotation: each one is good for one use, and a second use of the same one
 * (a stolen copy, replayed) revokes the whole login it belongs to, as OAuth 2.0 Security BCP
 * §4.14 asks. The tokens are JWTs signed with the guard's key; what has been used is kept in a
 * `RefreshStore` (in memory by default; one shared store for more than one replica).
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { JWTPayload, JWTVerifyOptions } from 'jose';
import { refuse } from './credentials.js';
import { jose } from './jose.js';
import { type Lifetime, REFRESH_TYP, type SignerConfig, signToken } from './sign.js';

/** Where used refresh tokens and revoked logins are kept; every method may be async. */
export interface RefreshStore {
  /** Marks a token id used until `expiresAt` (epoch seconds): true the first time, false after. */
  use(tokenId: string, expiresAt: number): Promise<boolean> | boolean;
  /** Revokes a login (a family of refresh tokens) until `expiresAt` (epoch seconds). */
  revoke(family: string, expiresAt: number): Promise<void> | void;
  /** Whether a login is revoked. */
  isRevoked(family: string): Promise<boolean> | boolean;
}

/** Options of `jwt({...}).refreshTokens()`. */
export interface RefreshOptions {
  /** How long a refresh token is valid. @default '30d' */
  ttl?: Lifetime;
  /** How long the access tokens it gives are valid. @default '15m' */
  accessTtl?: Lifetime;
  /** Where used tokens are kept. @default memoryRefreshStore(): one process only */
  store?: RefreshStore;
}

/** An access token and the refresh token that renews it, as a login or refresh route answers. */
export interface TokenPair {
  /** The bearer token the guard accepts. */
  accessToken: string;
  /** The token `rotate()` takes for the next pair; good for one use. */
  refreshToken: string;
  /** Always `Bearer`. */
  tokenType: 'Bearer';
  /** Seconds the access token is valid for. */
  expiresIn: number;
}

/** Issues, rotates and revokes refresh tokens for the claims `In` of a `jwt()` guard. */
export interface RefreshTokens<In> {
  /** A new login: an access token and a refresh token for `claims`. */
  issue(claims: In): Promise<TokenPair>;
  /**
   * The next pair for a refresh token, which is used up. An invalid, expired or revoked one is a
   * 401; one used before revokes its login. `update` may reload the claims (a role changed), or
   * return undefined to end the login (the user is gone): then 401 too.
   */
  rotate(
    refreshToken: string,
    update?: (claims: In) => In | undefined | Promise<In | undefined>,
  ): Promise<TokenPair>;
  /** Ends the login a refresh token belongs to (logout); an invalid token is a 401. */
  revoke(refreshToken: string): Promise<void>;
}

const OWN = ['iss', 'aud', 'iat', 'exp', 'nbf', 'jti', 'fam', 'sub'];

/** A store in this process's memory: used ids and revoked logins, dropped once expired. */
export function memoryRefreshStore(): RefreshStore {
  const used = new Map<string, number>();
  const revoked = new Map<string, number>();
  let writes = 0;
  const sweep = () => {
    if (++writes % 1024 !== 0) return;
    const now = Date.now() / 1000;
    for (const map of [used, revoked]) for (const [k, exp] of map) if (exp <= now) map.delete(k);
  };
  return {
    use(tokenId, expiresAt) {
      sweep();
      if (used.has(tokenId)) return false;
      used.set(tokenId, expiresAt);
      return true;
    },
    revoke(family, expiresAt) {
      sweep();
      revoked.set(family, Math.max(expiresAt, revoked.get(family) ?? 0));
    },
    isRevoked(family) {
      const exp = revoked.get(family);
      return exp !== undefined && exp > Date.now() / 1000;
    },
  };
}

/** The refresh tokens of a guard: signed and checked with the guard's key, issuer and audience. */
export function refreshTokens<In>(
  config: SignerConfig,
  verifyOptions: JWTVerifyOptions,
  scheme: string,
  { ttl = '30d', accessTtl = '15m', store = memoryRefreshStore() }: RefreshOptions = {},
): RefreshTokens<In> {
  const key = config.key;
  if (key === undefined) {
    throw new TypeError(
      'refreshTokens(): this jwt() guard verifies with a JWKS and holds no private key to sign with',
    );
  }
  const invalid = (why = 'The refresh token is not valid.') => refuse(scheme, 'invalid_token', why);

  const pair = async (claims: unknown, family: string): Promise<TokenPair> => {
    const accessToken = await signToken(config, claims, { expiresIn: accessTtl });
    const withFamily = { ...(claims as JWTPayload), fam: family };
    const refreshToken = await signToken(
      { ...config, claims: undefined },
      withFamily,
      { expiresIn: ttl, jwtId: randomUUID() },
      REFRESH_TYP,
    );
    const { exp = 0, iat = 0 } = jose.decodeJwt(accessToken);
    return { accessToken, refreshToken, tokenType: 'Bearer', expiresIn: exp - iat };
  };

  const read = async (token: string): Promise<JWTPayload & { fam: string; jti: string }> => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jose.jwtVerify(token, key, { ...verifyOptions, typ: REFRESH_TYP }));
    } catch {
      throw invalid();
    }
    if (typeof payload.fam !== 'string' || typeof payload.jti !== 'string') throw invalid();
    if (await store.isRevoked(payload.fam))
      throw invalid('The login of this refresh token has ended.');
    return payload as JWTPayload & { fam: string; jti: string };
  };

  // A revoked login must outlive every token of it: the longest a refresh token lives.
  const lifetime = (p: JWTPayload) => (p.exp ?? 0) - (p.iat ?? 0);
  const until = (p: JWTPayload) => Math.floor(Date.now() / 1000) + lifetime(p);

  return {
    issue: (claims) => pair(claims, randomUUID()),
    async rotate(token, update) {
      const payload = await read(String(token));
      if (!(await store.use(payload.jti, payload.exp ?? until(payload)))) {
        await store.revoke(payload.fam, until(payload));
        throw invalid('The refresh token was used before: its login has ended.');
      }
      const claims: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(payload))
        if (!OWN.includes(name)) claims[name] = value;
      if (payload.sub !== undefined) claims.sub = payload.sub;
      const next = update ? await update(claims as In) : (claims as In);
      if (next === undefined) {
        await store.revoke(payload.fam, until(payload));
        throw invalid('The login of this refresh token has ended.');
      }
      return pair(next, payload.fam);
    },
    async revoke(token) {
      const payload = await read(String(token));
      await store.revoke(payload.fam, until(payload));
    },
  };
}
