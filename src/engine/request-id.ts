/**
 * Request ids: a valid incoming id is kept, anything else replaced by a fresh UUID.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The App's `requestId` option: `false` turns ids off; `header` renames the header. */
export interface RequestIdOptions {
  /** The request and response header that carries the id. @default 'x-request-id' */
  header?: string;
}

/** The default request-id header. */
const REQUEST_ID_HEADER = 'x-request-id';

/** 1–128 characters of `A–Z a–z 0–9 . _ : -`: what an incoming id must be to be kept. */
const VALID_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The header of the App's `requestId` option, lower case; undefined when ids are off.
 * @throws TypeError when the option or its header name is not valid.
 */
export function requestIdHeaderOf(
  option: RequestIdOptions | boolean | undefined,
): string | undefined {
  if (option === false) return undefined;
  if (option === undefined || option === true) return REQUEST_ID_HEADER;
  if (typeof option !== 'object' || option === null) {
    throw new TypeError(`requestId must be false or { header }, got ${String(option)}`);
  }
  const header = option.header ?? REQUEST_ID_HEADER;
  if (typeof header !== 'string' || !/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(header)) {
    throw new TypeError(`requestId.header must be an HTTP header name, got ${String(header)}`);
  }
  return header.toLowerCase();
}

/** The id for a request carrying `incoming` in its request-id header: kept when valid. */
export function requestIdFor(incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && VALID_ID.test(incoming) ? incoming : randomUUID();
}

/** The engine's `genReqId` for ids carried in `header`. */
export function requestIdGenerator(header: string): (req: IncomingMessage) => string {
  return function genRequestId(req) {
    return requestIdFor(req.headers[header]);
  };
}
