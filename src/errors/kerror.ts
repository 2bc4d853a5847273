/**
 * KError: an error thrown on purpose, whose status, code and message reach the client.
 * @module
 */
import { isErrorStatus } from './status.js';

/** One failed check of a request part, e.g. `{ path: 'body.email', message: 'Invalid email' }`. */
export interface ValidationIssue {
  /** Where the bad value is: `body.email`, `query.limit`, `params.id`; `''` for the root. */
  path: string;
  /** What was expected there, written for the client. */
  message: string;
}

/** What `new KError(…)` needs. */
export interface KErrorOptions {
  /** Stable machine code in UPPER_SNAKE, e.g. `NOT_FOUND`. */
  code: string;
  /** HTTP status, an integer in 400..599. */
  statusCode: number;
  /** Sent to the client as the problem's `detail`, whatever the status. */
  message: string;
  /** The underlying failure; logged, never sent to the client. */
  cause?: unknown;
  /** Per-field validation failures, sent as the problem's `errors`. */
  errors?: ValidationIssue[] | undefined;
  /** Extra response headers, e.g. `{ 'retry-after': '30' }`. */
  headers?: Record<string, string> | undefined;
}

/**
 * An error thrown on purpose: its status, code, message and issues are sent to the client; its
 * cause is only logged.
 * @example throw new KError({ code: 'OUT_OF_STOCK', statusCode: 409, message: 'item 7 is sold out' })
 */
export class KError extends Error {
  /** Always `'KError'`. */
  override readonly name: string = 'KError';
  /** Stable machine code, e.g. `NOT_FOUND`. */
  readonly code: string;
  /** HTTP status, an integer in 400..599. */
  readonly statusCode: number;
  /** Per-field validation failures, if any. */
  readonly errors: ValidationIssue[] | undefined;
  /** Extra response headers the error handler sets; empty when none. */
  readonly headers: Readonly<Record<string, string>>;

  /** @throws TypeError when `code` is empty or `statusCode` is not an integer in 400..599. */
  constructor(opts: KErrorOptions) {
    super(opts.message, opts.cause === undefined ? undefined : { cause: opts.cause });
    if (typeof opts.code !== 'string' || opts.code === '') {
      throw new TypeError(`KError code must be a non-empty string, got ${String(opts.code)}`);
    }
    if (!isErrorStatus(opts.statusCode)) {
      throw new TypeError(
        `KError statusCode must be an integer in 400..599, got ${String(opts.statusCode)}`,
      );
    }
    this.code = opts.code;
    this.statusCode = opts.statusCode;
    this.errors = opts.errors?.map((issue) => ({ path: issue.path, message: issue.message }));
    this.headers = Object.freeze({ ...opts.headers });
  }
}

/** True when `v` is a KError. Never throws. */
export function isKError(v: unknown): v is KError {
  try {
    return v instanceof KError;
  } catch {
    return false;
  }
}
