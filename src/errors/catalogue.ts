/**
 * The catalogue of every problem `code` Keelson itself answers with: its status, its title,
 * when it happens and what the client should do. docs/reference/errors.md is generated from it
 * (`npm run gen:errors`, i.e. `tsx scripts/gen-errors-doc.ts`).
 * @module
 */

/** One code of the catalogue. */
export interface CatalogueEntry {
  /** The HTTP status every answer with this code has. */
  readonly status: number;
  /** The problem's `title`: the reason phrase of `status`. */
  readonly title: string;
  /** When Keelson answers with this code. */
  readonly when: string;
  /** What the client should do about it. */
  readonly action: string;
}

/**
 * Every problem code Keelson answers with, in status order. A service's own codes (a
 * `new KError({ code: 'OUT_OF_STOCK', … })`) are not listed: they are the service's to document.
 */
export const ERROR_CATALOGUE = {
  BAD_REQUEST: {
    status: 400,
    title: 'Bad Request',
    when: 'The request cannot be used as sent: a URL the router cannot decode, an `Idempotency-Key` header that is repeated, malformed or missing where it is required, a value the database cannot read, or a handler calling `badRequest()`.',
    action: 'Fix what `detail` names; the same request gets the same answer.',
  },
  MALFORMED_JSON: {
    status: 400,
    title: 'Bad Request',
    when: 'A body sent as `application/json` is not valid JSON, or is empty; on a WebSocket, a message that is not valid JSON (an error frame, the socket stays open).',
    action: 'Send valid JSON, or send no `Content-Type` with an empty body.',
  },
  INVALID_CONTENT_LENGTH: {
    status: 400,
    title: 'Bad Request',
    when: 'The body that arrived is not as long as its `Content-Length` said.',
    action: 'Fix the client or proxy that frames the body; do not retry as is.',
  },
  MALFORMED_REQUEST: {
    status: 400,
    title: 'Bad Request',
    when: "Node's HTTP parser rejected the request: a bad request line or header, or broken chunked encoding. The connection is closed.",
    action: 'Fix the client or proxy; the request is not valid HTTP/1.1.',
  },
  MALFORMED_MULTIPART: {
    status: 400,
    title: 'Bad Request',
    when: 'An upload route received a `multipart/form-data` body that is malformed or was cut short.',
    action: 'Send the whole form again, built by a multipart encoder.',
  },
  UNAUTHORIZED: {
    status: 401,
    title: 'Unauthorized',
    when: 'A guarded route got no credentials, or credentials it cannot accept (a bad or expired token, an unknown API key). `WWW-Authenticate` names the scheme and why.',
    action: 'Get valid credentials (sign in, refresh the token) and retry.',
  },
  FORBIDDEN: {
    status: 403,
    title: 'Forbidden',
    when: 'The credentials are valid but do not allow this (`authorize()`, a handler calling `forbidden()`), or the dev panel refused a remote client or host name.',
    action: 'Do not retry with the same credentials: ask for the permission.',
  },
  NOT_FOUND: {
    status: 404,
    title: 'Not Found',
    when: 'No route matches the method and path, a static file does not exist (or may not be served), `db.sql…one()` found no row, or a handler called `notFound()`.',
    action: 'Check the URL and the identifiers in it.',
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    title: 'Method Not Allowed',
    when: 'The path exists, but not for this method. `Allow` lists the methods it answers.',
    action: 'Use one of the methods in `Allow`.',
  },
  REQUEST_TIMEOUT: {
    status: 408,
    title: 'Request Timeout',
    when: 'The request line, headers or body did not arrive within the server timeouts. The connection is closed.',
    action: 'Retry on a new connection; send the request without pauses.',
  },
  CONFLICT: {
    status: 409,
    title: 'Conflict',
    when: 'The request clashes with the stored state: a duplicate of a unique value, a reference to a missing record (or one still referred to), or a handler calling `conflict()`.',
    action: 'Read the current state, then change the request.',
  },
  IDEMPOTENCY_KEY_IN_USE: {
    status: 409,
    title: 'Conflict',
    when: 'A request with the same `Idempotency-Key` is still running.',
    action: 'Wait `Retry-After` seconds and retry with the same key.',
  },
  PRECONDITION_FAILED: {
    status: 412,
    title: 'Precondition Failed',
    when: "A static file did not meet the request's `If-Match` or `If-Unmodified-Since`.",
    action: 'Fetch the file again without the condition.',
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    title: 'Payload Too Large',
    when: "The body is over the route's body limit, a file is over its field's `maxBytes`, or a form has more files, fields or parts than the route takes.",
    action: 'Send less: a smaller body, a smaller file, fewer parts.',
  },
  URI_TOO_LONG: {
    status: 414,
    title: 'URI Too Long',
    when: 'A path parameter is longer than the router accepts.',
    action: 'Use a shorter identifier in the path.',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    title: 'Unsupported Media Type',
    when: "The body's `Content-Type` is not one the route reads, its `Content-Encoding` is not gzip, deflate or br, an upload route got no multipart form, or an uploaded file has a type its field does not accept.",
    action: 'Send the type and encoding that `detail` names.',
  },
  RANGE_NOT_SATISFIABLE: {
    status: 416,
    title: 'Range Not Satisfiable',
    when: 'A `Range` asked for a static file lies outside the file.',
    action: 'Ask for a range inside the file, or for the whole file.',
  },
  EXPECTATION_FAILED: {
    status: 417,
    title: 'Expectation Failed',
    when: 'The request carries an `Expect` other than `100-continue`. The connection is closed.',
    action: 'Send no `Expect` header, or `Expect: 100-continue`.',
  },
  VALIDATION_FAILED: {
    status: 422,
    title: 'Unprocessable Entity',
    when: "The path parameters, query, headers or body failed the route's schema (`errors` lists each bad field), the database refused a missing or disallowed value, a WebSocket message failed its schema (an error frame), or a handler called `unprocessable()`.",
    action: 'Fix each field listed in `errors`, then send again.',
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    title: 'Unprocessable Entity',
    when: 'The `Idempotency-Key` was used before for a different request (method, URL or body).',
    action: 'Use a new key for a new request.',
  },
  UPGRADE_REQUIRED: {
    status: 426,
    title: 'Upgrade Required',
    when: 'A WebSocket endpoint got a plain HTTP request.',
    action: 'Open a WebSocket (`Upgrade: websocket`) instead.',
  },
  TOO_MANY_REQUESTS: {
    status: 429,
    title: 'Too Many Requests',
    when: 'A rate limit is used up, or a handler called `tooManyRequests()`. `Retry-After` (and the `RateLimit-*` headers) say when it resets.',
    action: 'Wait `Retry-After` seconds before the next request.',
  },
  HEADERS_TOO_LARGE: {
    status: 431,
    title: 'Request Header Fields Too Large',
    when: 'The request line and headers are larger than the server reads. The connection is closed.',
    action: 'Send fewer or smaller headers (cookies, tokens).',
  },
  INTERNAL: {
    status: 500,
    title: 'Internal Server Error',
    when: 'Something failed that the client could not cause: an unexpected error (its detail is generic, its cause only logged), a response that does not match its schema, or a handler calling `internal()`.',
    action: 'Report it with the `requestId`; retrying may not help.',
  },
  UPLOAD_NOT_STORED: {
    status: 500,
    title: 'Internal Server Error',
    when: 'An uploaded file could not be written to the temporary directory.',
    action: 'Report it with the `requestId`; retry later.',
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    title: 'Service Unavailable',
    when: 'A dependency is down or busy: the database is unreachable, too slow or the transaction clashed with another, the idempotency store failed, the token keys cannot be fetched, or a handler called `serviceUnavailable()`.',
    action:
      'Retry after `Retry-After` seconds (when sent), with the same `Idempotency-Key` if any.',
  },
  TIMEOUT: {
    status: 504,
    title: 'Gateway Timeout',
    when: 'The route did not answer within its `timeoutMs`.',
    action: 'Retry later; the work may or may not have been done.',
  },
  INSUFFICIENT_STORAGE: {
    status: 507,
    title: 'Insufficient Storage',
    when: 'The server has no room left to store an uploaded file.',
    action: 'Retry later, or send a smaller file.',
  },
} as const satisfies Readonly<Record<string, CatalogueEntry>>;

/** A problem code Keelson answers with: a key of ERROR_CATALOGUE. */
export type KeelsonErrorCode = keyof typeof ERROR_CATALOGUE;

/** True when `code` is one of the catalogue's codes. Never throws. */
export function isKeelsonErrorCode(code: unknown): code is KeelsonErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_CATALOGUE, code);
}
