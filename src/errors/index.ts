/**
 * KError, the helpers that build one per status, and the RFC 9457 problem body every error
 * response carries.
 * @module
 */
import { keelsonError } from './keelson-error.js';
import type { KError, ValidationIssue } from './kerror.js';

// Re-exported so that this file stays the one entry for everything about errors.
export {
  type CatalogueEntry,
  ERROR_CATALOGUE,
  isKeelsonErrorCode,
  type KeelsonErrorCode,
} from './catalogue.js';
export type { ErrorContext, ErrorsOptions, ResolvedErrors } from './error-body.js';
export { type KeelsonErrorExtras, keelsonError } from './keelson-error.js';
export { isKError, KError, type KErrorOptions, type ValidationIssue } from './kerror.js';
export {
  catalogueProblem,
  PROBLEM_CHANNEL,
  PROBLEM_CONTENT_TYPE,
  type ProblemDetails,
  toProblem,
} from './problem.js';
export { statusTitle } from './status.js';

/** 400 `BAD_REQUEST`. @example throw badRequest('limit must be at most 100') */
export function badRequest(message?: string, cause?: unknown): KError {
  return keelsonError('BAD_REQUEST', message, { cause });
}

/** 401 `UNAUTHORIZED`: the request carries no valid credentials. */
export function unauthorized(message?: string, cause?: unknown): KError {
  return keelsonError('UNAUTHORIZED', message, { cause });
}

/** 403 `FORBIDDEN`: the credentials are valid but not allowed to do this. */
export function forbidden(message?: string, cause?: unknown): KError {
  return keelsonError('FORBIDDEN', message, { cause });
}

/** 404 `NOT_FOUND`. @example throw notFound(`user ${id} not found`) */
export function notFound(message?: string, cause?: unknown): KError {
  return keelsonError('NOT_FOUND', message, { cause });
}

/** 409 `CONFLICT`: the request clashes with the current state, e.g. a duplicate key. */
export function conflict(message?: string, cause?: unknown): KError {
  return keelsonError('CONFLICT', message, { cause });
}

/**
 * 422 `VALIDATION_FAILED`, with one issue per bad field.
 * @example throw unprocessable('invalid body', [{ path: 'body.email', message: 'Invalid email' }])
 */
export function unprocessable(message?: string, errors?: ValidationIssue[]): KError {
  return keelsonError('VALIDATION_FAILED', message ?? 'Validation failed', { errors });
}

/**
 * 429 `TOO_MANY_REQUESTS`, with a `Retry-After` header (seconds, rounded up) when given.
 * @throws TypeError when `retryAfterSeconds` is negative or not finite.
 */
export function tooManyRequests(message?: string, retryAfterSeconds?: number): KError {
  let headers: Record<string, string> | undefined;
  if (retryAfterSeconds !== undefined) {
    if (!Number.isFinite(retryAfterSeconds) || retryAfterSeconds < 0) {
      throw new TypeError(
        `retryAfterSeconds must be a finite number >= 0, got ${String(retryAfterSeconds)}`,
      );
    }
    headers = { 'retry-after': String(Math.ceil(retryAfterSeconds)) };
  }
  return keelsonError('TOO_MANY_REQUESTS', message, { headers });
}

/**
 * 500 `INTERNAL`. The message is sent to the client, the cause only logged.
 * @example throw internal('could not save the order', dbError)
 */
export function internal(message?: string, cause?: unknown): KError {
  return keelsonError('INTERNAL', message, { cause });
}

/** 503 `SERVICE_UNAVAILABLE`: a dependency is down or the service is shutting down. */
export function serviceUnavailable(message?: string, cause?: unknown): KError {
  return keelsonError('SERVICE_UNAVAILABLE', message, { cause });
}
