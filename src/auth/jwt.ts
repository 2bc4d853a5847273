/**
 * `jwt()`: a guard that verifies `Authorization: Bearer <jwt>` with jose.
 * @module
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { JWTPayload, JWTVerifyGetKey, JWTVerifyOptions } from 'jose';
import { serviceUnavailable } from '../errors/index.js';
import type { Guard } from '../routing/guarded.js';
import { describeMiddleware } from '../routing/middleware-docs.js';
import type { Schema } from '../routing/schema-types.js';
import { authorizationReader, refuse } from './credentials.js';
import { authorizationScheme, type GuardOptions, guardDocs } from './docs.js';
import { jose } from './jose.js';
import { type RefreshOptions, type RefreshTokens, refreshTokens } from './refresh.js';
import { checkScheme } from './scheme.js';
import {
  REFRESH_TYP,
  type SignClaims,
  type SignerConfig,
  type SignOptions,
  signToken,
} from './sign.js';

/** Where the keys come from: a shared secret (HS*) or a JWKS URL (RS*, PS*, ES*, EdDSA). */
export type JwtKey =
  | { /** The HMAC secret. */ secret: string | Uint8Array; jwksUrl?: never }
  | {
      /** The URL of the JSON Web Key Set; jose fetches and caches it. */ jwksUrl: string;
      secret?: never;
    };

/** Options of `jwt()`. */
export type JwtOptions<S extends Schema | undefined = undefined> = JwtKey &
  GuardOptions & {
    /** The accepted `iss`. */
    issuer?: string | string[];
    /** The accepted `aud`. */
    audience?: string | string[];
    /** Accepted algorithms. @default HS256/384/512 with a secret, the asymmetric ones with a JWKS */
    algorithms?: string[];
    /** Leeway for `exp` and `nbf`, in seconds. @default 0 */
    clockToleranceSec?: number;
    /** A schema the payload must pass; its output becomes `c.user`. */
    claims?: S;
    /** The word before the token. @default 'Bearer' */
    scheme?: string;
    /** Longer tokens are refused before any parsing. @default 8192 */
    maxTokenLength?: number;
  };

/** What `c.user` is after `jwt({ claims })`: the claims schema's output, or the raw payload. */
export type JwtUser<S> = S extends Schema ? StandardSchemaV1.InferOutput<S> : JWTPayload;

/**
 * A `jwt()` guard, which also issues the tokens it accepts: same key, issuer, audience,
 * algorithm and claims schema, so a token it signs is one it lets through.
 */
export type JwtGuard<U, S> = Guard<U> & {
  /**
   * Signs an access token for `claims` (checked against the guard's claims schema first), with
   * the guard's issuer and audience, valid `expiresIn` (default 15 minutes).
   * @example const token = await auth.sign({ sub: user.id, role: user.role }, { expiresIn: '1h' });
   */
  sign(claims: SignClaims<S>, options?: SignOptions): Promise<string>;
  /**
   * Refresh tokens for this guard's access tokens, rotated on every use, a reused one ending its
   * login. Give a shared `store` when more than one replica serves the refresh route.
   * @example const sessions = auth.refreshTokens({ ttl: '30d' }); const pair = await sessions.issue(claims);
   */
  refreshTokens(options?: RefreshOptions): RefreshTokens<SignClaims<S>>;
};

const HMAC = ['HS256', 'HS384', 'HS512'];
const ASYMMETRIC = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];
// Errors that say the key set could not be had, not that the token is bad.
const KEYS_UNAVAILABLE = new Set(['ERR_JWKS_TIMEOUT', 'ERR_JWKS_INVALID', 'ERR_JOSE_GENERIC']);

/**
 * A guard that verifies a JWT (signature, `exp`, `nbf`, `iss`, `aud`, and `claims` when given)
 * and sets `c.user` to its claims. Missing token: 401 with `WWW-Authenticate: Bearer`; a bad or
 * expired one: 401 with `error="invalid_token"`; a JWKS that cannot be fetched: 503.
 * @example const auth = jwt({ secret: config.JWT_SECRET, claims: z.object({ sub: z.string() }) });
 */
export function jwt<S extends Schema | undefined = undefined>(
  options: JwtOptions<S> & { optional: true },
): JwtGuard<JwtUser<S> | undefined, S>;
export function jwt<S extends Schema | undefined = undefined>(
  options: JwtOptions<S>,
): JwtGuard<JwtUser<S>, S>;
export function jwt(
  options: JwtOptions<Schema | undefined>,
): JwtGuard<unknown, Schema | undefined> {
  const {
    secret,
    jwksUrl,
    issuer,
    audience,
    algorithms,
    clockToleranceSec = 0,
    claims,
    optional = false,
    scheme = 'Bearer',
    maxTokenLength = 8192,
  } = options ?? ({} as JwtOptions);
  checkScheme(scheme, 'jwt');
  if ((secret === undefined) === (jwksUrl === undefined)) {
    throw new TypeError('jwt() takes exactly one of secret and jwksUrl');
  }
  if (secret !== undefined && !(typeof secret === 'string' ? secret : secret?.length)) {
    throw new TypeError('jwt(): secret must be a non-empty string or Uint8Array');
  }
  const remote = jwksUrl !== undefined;
  const key: Uint8Array | JWTVerifyGetKey = remote
    ? jose.createRemoteJWKSet(parseUrl(jwksUrl))
    : typeof secret === 'string'
      ? new TextEncoder().encode(secret)
      : (secret as Uint8Array);
  const verifyOptions: JWTVerifyOptions = {
    algorithms: algorithms ?? (remote ? ASYMMETRIC : HMAC),
    clockTolerance: clockToleranceSec,
    ...(issuer !== undefined ? { issuer } : {}),
    ...(audience !== undefined ? { audience } : {}),
  };
  const read = authorizationReader(scheme, maxTokenLength);
  const docs = authorizationScheme(scheme, true);

  const verify = async (token: string): Promise<JWTPayload> => {
    let verified: { payload: JWTPayload; protectedHeader: { typ?: string } };
    try {
      verified =
        typeof key === 'function'
          ? await jose.jwtVerify(token, key, verifyOptions)
          : await jose.jwtVerify(token, key, verifyOptions);
    } catch (err) {
      throw tokenError(err, scheme, remote);
    }
    // A refresh token is signed with the same key: it renews a login, it does not open routes.
    if (verified.protectedHeader.typ?.toLowerCase() === REFRESH_TYP) {
      throw refuse(scheme, 'invalid_token', 'A refresh token is not an access token.');
    }
    return verified.payload;
  };

  const signer: SignerConfig = {
    key: typeof key === 'function' ? undefined : key,
    algorithm: verifyOptions.algorithms?.[0] ?? 'HS256',
    issuer,
    audience,
    claims,
  };
  const guard = describeMiddleware(
    async function jwtGuard(c, next) {
      const token = read(c);
      if (token === undefined) {
        if (optional) return next();
        throw refuse(scheme, 'missing', 'A token is required.');
      }
      const payload = await verify(token);
      if (claims) {
        const result = await claims['~standard'].validate(payload);
        if (result.issues)
          throw refuse(scheme, 'invalid_token', "The token's claims are not accepted.");
        c.user = result.value;
      } else {
        c.user = payload;
      }
      return next();
    },
    guardDocs(options.securityScheme ?? docs.name, docs.scheme, scheme, optional),
  );
  return Object.assign(guard, {
    sign: (claims: unknown, signOptions?: SignOptions) => signToken(signer, claims, signOptions),
    refreshTokens: (refreshOptions?: RefreshOptions) =>
      refreshTokens<unknown>(signer, verifyOptions, scheme, refreshOptions),
  }) as JwtGuard<unknown, Schema | undefined>;
}

function parseUrl(url: string): URL {
  try {
    return new URL(url);
  } catch {
    throw new TypeError(`jwt(): jwksUrl must be an absolute URL, got ${JSON.stringify(url)}`);
  }
}

function tokenError(err: unknown, scheme: string, remote: boolean): Error {
  const isJose = err instanceof jose.errors.JOSEError;
  if (remote && (!isJose || KEYS_UNAVAILABLE.has(err.code))) {
    return serviceUnavailable('The keys that check the token cannot be fetched.', err);
  }
  if (isJose && err.code === 'ERR_JWT_EXPIRED')
    return refuse(scheme, 'invalid_token', 'The token has expired.');
  if (err instanceof jose.errors.JWTClaimValidationFailed) {
    return refuse(scheme, 'invalid_token', `The token's ${err.claim} claim is not accepted.`);
  }
  return refuse(scheme, 'invalid_token', 'The token is not valid.');
}
