/**
 * How Keelson builds the errors it answers with: from a catalogue code, so that every code it
 * sends is one the catalogue lists (and docs/reference/errors.md documents).
 * @module
 */
import { ERROR_CATALOGUE, type KeelsonErrorCode } from './catalogue.js';
import { KError, type ValidationIssue } from './kerror.js';

/** What a catalogue KError may carry besides its code and message. */
export interface KeelsonErrorExtras {
  /** The underlying failure; logged, never sent to the client. */
  readonly cause?: unknown;
  /** Per-field validation failures, sent as the problem's `errors`. */
  readonly errors?: ValidationIssue[] | undefined;
  /** Extra response headers, e.g. `{ 'retry-after': '30' }`. */
  readonly headers?: Record<string, string> | undefined;
}

/**
 * A KError with a catalogue code; its status is the catalogue's, its message (the problem's
 * `detail`) defaults to the status title.
 * @example throw keelsonError('UPGRADE_REQUIRED', 'Send an Upgrade: websocket request.')
 */
export function keelsonError(
  code: KeelsonErrorCode,
  message?: string,
  extras: KeelsonErrorExtras = {},
): KError {
  const entry = ERROR_CATALOGUE[code];
  return new KError({
    code,
    statusCode: entry.status,
    message: message ?? entry.title,
    cause: extras.cause,
    errors: extras.errors,
    headers: extras.headers,
  });
}
