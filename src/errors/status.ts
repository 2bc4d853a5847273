/**
 * HTTP status phrases and the machine codes made from them.
 * @module
 */
import { STATUS_CODES } from 'node:http';

/**
 * The HTTP reason phrase of a status, e.g. `statusTitle(404) === 'Not Found'`; `Client Error`,
 * `Server Error` or `Unknown Status` when Node has no phrase for it.
 */
export function statusTitle(status: number): string {
  const phrase = STATUS_CODES[status];
  if (phrase !== undefined) return phrase;
  if (status >= 400 && status <= 499) return 'Client Error';
  if (status >= 500 && status <= 599) return 'Server Error';
  return 'Unknown Status';
}

/** The stable code of a status: `405` → `METHOD_NOT_ALLOWED`, `418` → `IM_A_TEAPOT`. */
export function statusCodeName(status: number): string {
  if (status === 413) return 'PAYLOAD_TOO_LARGE'; // pinned: RFC 9110 renamed it Content Too Large
  return statusTitle(status)
    .replace(/'/g, '')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toUpperCase();
}

/** True for an integer in 400..599, the statuses an error response may have. */
export function isErrorStatus(v: unknown): v is number {
  return Number.isInteger(v) && (v as number) >= 400 && (v as number) <= 599;
}
