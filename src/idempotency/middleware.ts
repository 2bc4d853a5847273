/**
 * `idempotency(...)`: the `Idempotency-Key` request header (IETF draft "The Idempotency-Key
 * HTTP Header Field") as Keelson middleware. The first request with a key runs and its answer
 * is kept; a retry gets that answer again instead of running twice.
 * @module
 */
import { describeError } from '../errors/describe.js';
import { badRequest, isKError, type KError, keelsonError } from '../errors/index.js';
import { bodyRead } from '../routing/before-body.js';
import type { Context } from '../routing/context.js';
import { describeMiddleware, type MiddlewareDocs } from '../routing/middleware-docs.js';
import type { HttpMethod, Middleware, Next } from '../routing/types.js';
import { captureAnswer, fingerprintOf, replayAnswer, snapshotHeaders } from './answer.js';
import { databaseIdempotencyStore, type IdempotencyDatabase } from './database-store.js';
import type { IdempotencyStore } from './store.js';

/** What `idempotency` keeps its records in: a store, or a keelson/db `Database`. */
export type IdempotencyStoreOption = IdempotencyStore | IdempotencyDatabase;

/** What `idempotency` does, and where it keeps its records. */
export interface IdempotencyOptions {
  /**
   * Where records live: a `Database` (`store: db`; the answer commits with the handler's writes
   * when the route is `db.transactional()`), `redisIdempotencyStore(redis)`, or
   * `memoryIdempotencyStore()` for one process.
   */
  store: IdempotencyStoreOption;
  /** How long an answer is replayed after it was given. @default 86_400_000 (24 h) */
  ttlMs?: number;
  /** Refuse (400) a POST, PATCH or DELETE without an `Idempotency-Key`. @default false */
  required?: boolean;
  /**
   * How long a request in progress holds its key; a retry after that (its process died) runs
   * again. Keep it above the route's timeout. @default 60_000
   */
  lockMs?: number;
  /**
   * Whose keys they are: its result prefixes the key, so two clients sending the same key do
   * not share answers (e.g. `(c) => c.user.id` after an auth guard). @default one shared space
   */
  scope?: (c: Context) => string;
}

/** The request header, as the draft names it. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

const METHODS: ReadonlySet<string> = new Set<HttpMethod>(['POST', 'PATCH', 'DELETE']);
const MAX_KEY_LENGTH = 255;
// Visible ASCII: what a Structured Field string may hold, less quotes, backslash and comma
// (two Idempotency-Key lines reach the server joined by a comma).
const KEY_PATTERN = /^[\x20-\x21\x23-\x2b\x2d-\x5b\x5d-\x7e]+$/;
/** Seconds a client is told to wait while the first request with its key runs. */
const RETRY_AFTER_S = '1';

/** The key of the request: a bare token or a quoted Structured Field string, else a 400. */
function keyOf(c: Context): string | undefined {
  const raw = c.request.headers['idempotency-key'];
  if (raw === undefined) return undefined;
  if (Array.isArray(raw)) throw badRequest('Send one Idempotency-Key header, not several.');
  const quoted = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"');
  const key = quoted ? raw.slice(1, -1) : raw;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH || !KEY_PATTERN.test(key)) {
    throw badRequest(
      `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} visible ASCII characters, without \\, " or a comma (e.g. a UUID).`,
    );
  }
  return key;
}

function positiveInteger(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 1) {
    throw new TypeError(`idempotency ${name} must be an integer >= 1, got ${String(value)}`);
  }
}

function isDatabase(store: IdempotencyStoreOption): store is IdempotencyDatabase {
  const s = store as Partial<IdempotencyDatabase>;
  return typeof s.transactional === 'function' && typeof s.query === 'function';
}

/** The OpenAPI additions: the header parameter and the answers the middleware may give. */
function docsOf(required: boolean): MiddlewareDocs {
  return {
    methods: ['POST', 'PATCH', 'DELETE'],
    requestHeaders: {
      [IDEMPOTENCY_KEY_HEADER]: {
        required,
        description:
          'A unique key (e.g. a UUID) for this operation: a retry with the same key gets the first answer again, with `Idempotent-Replayed: true`.',
        schema: { type: 'string', minLength: 1, maxLength: MAX_KEY_LENGTH },
      },
    },
    responses: {
      400: {
        description: required
          ? 'No Idempotency-Key, or a malformed one'
          : 'A malformed Idempotency-Key',
        codes: ['BAD_REQUEST'],
      },
      409: {
        description: 'A request with this Idempotency-Key is still running',
        headers: {
          'Retry-After': {
            description: 'Seconds to wait before retrying.',
            schema: { type: 'integer' },
          },
        },
        codes: ['IDEMPOTENCY_KEY_IN_USE'],
      },
      422: {
        description: 'This Idempotency-Key was used for a different request',
        codes: ['IDEMPOTENCY_KEY_REUSED'],
      },
    },
  };
}

/**
 * Idempotency keys for POST, PATCH and DELETE (other methods pass through). The first request
 * with a key runs and its answer (status, the headers the handler set, body) is kept for
 * `ttlMs`; a retry with the same key and the same method, URL and body gets it again with
 * `Idempotent-Replayed: true`. The same key on another request: 422. While the first still
 * runs: 409 with `Retry-After`. A 5xx answer or a thrown error is not kept: the retry runs again.
 * @example post('/orders', { middleware: [db.transactional(), idempotency({ store: db })] }, createOrder)
 */
export function idempotency({
  store,
  ttlMs = 86_400_000,
  required = false,
  lockMs = 60_000,
  scope,
}: IdempotencyOptions): Middleware {
  if (!store || typeof store !== 'object') {
    throw new TypeError('idempotency store must be a Database or an IdempotencyStore');
  }
  const records = isDatabase(store) ? databaseIdempotencyStore(store) : store;
  if (typeof records.claim !== 'function' || typeof records.complete !== 'function') {
    throw new TypeError('idempotency store must have claim, complete and release methods');
  }
  positiveInteger('ttlMs', ttlMs);
  positiveInteger('lockMs', lockMs);
  if (scope !== undefined && typeof scope !== 'function') {
    throw new TypeError('idempotency scope must be a function');
  }

  const release = async (c: Context, key: string, token: string) => {
    try {
      await records.release(key, token);
    } catch (err) {
      c.log.warn('idempotency: could not release a key: %s', describeError(err));
    }
  };

  const middleware = async function idempotency(c: Context, next: Next): Promise<unknown> {
    if (!METHODS.has(c.request.method)) return next();
    const sent = keyOf(c);
    if (sent === undefined) {
      if (required) throw badRequest(`This operation needs an ${IDEMPOTENCY_KEY_HEADER} header.`);
      return next();
    }
    const key = scope ? `${scope(c)}:${sent}` : sent;
    await bodyRead(c); // middleware runs before the body: the fingerprint needs it
    const fingerprint = fingerprintOf(c);
    let claim: Awaited<ReturnType<IdempotencyStore['claim']>>;
    try {
      claim = await records.claim(key, fingerprint, lockMs);
    } catch (err) {
      throw unavailable(err);
    }
    if (claim.state !== 'claimed') {
      if (claim.fingerprint !== undefined && claim.fingerprint !== fingerprint) throw reused();
      if (claim.state === 'running') throw running();
      return replayAnswer(c, claim.answer);
    }
    const before = snapshotHeaders(c);
    let result: unknown;
    try {
      result = await next();
    } catch (err) {
      await release(c, key, claim.token);
      throw err;
    }
    const answer = c.reply.statusCode >= 500 ? undefined : captureAnswer(c, before, result);
    if (!answer) {
      if (c.reply.statusCode < 500) {
        c.log.warn(
          'idempotency: this answer (a stream or a sent reply) cannot be kept; the key is released',
        );
      }
      await release(c, key, claim.token);
      return result;
    }
    try {
      await records.complete(key, claim.token, answer, ttlMs);
    } catch (err) {
      await release(c, key, claim.token);
      throw unavailable(err);
    }
    return result;
  };
  return describeMiddleware(middleware, docsOf(required));
}

function unavailable(err: unknown): KError {
  if (isKError(err) && err.statusCode >= 500) return err;
  return keelsonError(
    'SERVICE_UNAVAILABLE',
    'The idempotency store is unavailable; retry with the same Idempotency-Key.',
    { cause: err, headers: { 'retry-after': RETRY_AFTER_S } },
  );
}

function reused(): KError {
  return keelsonError(
    'IDEMPOTENCY_KEY_REUSED',
    `This ${IDEMPOTENCY_KEY_HEADER} was used for a different request (method, URL or body); use a new key.`,
  );
}

function running(): KError {
  return keelsonError(
    'IDEMPOTENCY_KEY_IN_USE',
    `A request with this ${IDEMPOTENCY_KEY_HEADER} is still running; retry later.`,
    { headers: { 'retry-after': RETRY_AFTER_S } },
  );
}
