/**
 * Token signing that shares its guard's key, issuer, audience, algorithm and claims schema:
 * `jwt({...}).sign(claims)` issues a token the same guard accepts, by construction.
 * @module
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { JWTPayload } from 'jose';
import type { Schema } from '../routing/schema-types.js';
import { jose } from './jose.js';

/** A lifetime: seconds, or a jose time span such as `'15m'`, `'12h'`, `'30d'`. */
export type Lifetime = number | string;

/** Options of `sign`. */
export interface SignOptions {
  /** How long the token is valid. @default '15m' */
  expiresIn?: Lifetime;
  /** The `sub` claim, when the claims do not carry it. */
  subject?: string;
  /** The `jti` claim: a token id, e.g. to deny one token before it expires. */
  jwtId?: string;
}

/** What `jwt({...})` signs with: what its guard verifies with. */
export interface SignerConfig {
  /** The HMAC key, or undefined for a guard that verifies with a JWKS (it holds no private key). */
  readonly key: Uint8Array | undefined;
  /** The algorithm of new tokens: the first the guard accepts. */
  readonly algorithm: string;
  /** The guard's accepted `iss`; the first is written. */
  readonly issuer: string | string[] | undefined;
  /** The guard's accepted `aud`; written as given. */
  readonly audience: string | string[] | undefined;
  /** The guard's claims schema: claims it would refuse are refused before signing. */
  readonly claims: Schema | undefined;
}

/** The claims `sign` takes: the claims schema's input, or any JWT payload. */
export type SignClaims<S> = S extends Schema ? StandardSchemaV1.InferInput<S> : JWTPayload;

/** The header `typ` of a refresh token: the guard refuses it as an access token. */
export const REFRESH_TYP = 'refresh+jwt';

const REGISTERED = ['iss', 'aud', 'iat', 'exp', 'nbf', 'jti'];

/** Signs `claims` as the guard's issuer for its audience; `typ` marks a refresh token. */
export async function signToken(
  config: SignerConfig,
  claims: unknown,
  { expiresIn = '15m', subject, jwtId }: SignOptions = {},
  typ = 'JWT',
): Promise<string> {
  if (config.key === undefined) {
    throw new TypeError(
      'sign(): this jwt() guard verifies with a JWKS and holds no private key; sign tokens where the key is (the identity provider), or give the guard a secret',
    );
  }
  const payload = await checkClaims(config.claims, claims);
  for (const name of REGISTERED) delete payload[name];
  const token = new jose.SignJWT(payload)
    .setProtectedHeader({ alg: config.algorithm, typ })
    .setIssuedAt()
    .setExpirationTime(expiry(expiresIn));
  const issuer = Array.isArray(config.issuer) ? config.issuer[0] : config.issuer;
  if (issuer !== undefined) token.setIssuer(issuer);
  if (config.audience !== undefined) token.setAudience(config.audience);
  if (subject !== undefined) token.setSubject(subject);
  if (jwtId !== undefined) token.setJti(jwtId);
  return token.sign(config.key);
}

// jose reads a span ('15m', '2 hours') and throws a TypeError naming one it cannot read.
function expiry(lifetime: Lifetime): number | string {
  if (typeof lifetime === 'string') return lifetime;
  if (!Number.isFinite(lifetime) || lifetime <= 0) {
    throw new TypeError(`sign(): expiresIn must be a positive number of seconds, got ${lifetime}`);
  }
  return Math.floor(Date.now() / 1000) + Math.floor(lifetime);
}

async function checkClaims(schema: Schema | undefined, claims: unknown): Promise<JWTPayload> {
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) {
    throw new TypeError('sign(): claims must be an object, e.g. { sub: user.id }');
  }
  if (!schema) return { ...(claims as JWTPayload) };
  const result = await schema['~standard'].validate(claims);
  if (result.issues) {
    const where = result.issues.map(
      (i) => `${(i.path ?? []).map(String).join('.') || '(claims)'}: ${i.message}`,
    );
    throw new TypeError(
      `sign(): the guard's claims schema refuses these claims: ${where.join('; ')}`,
    );
  }
  // The input is signed, not the output: the guard validates the input again on every request.
  return { ...(claims as JWTPayload) };
}
