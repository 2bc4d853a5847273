/**
 * The RFC 9457 problem body every error response carries, and how any thrown value becomes one.
 * @module
 */
import { channel } from 'node:diagnostics_channel';
import { ERROR_CATALOGUE, type KeelsonErrorCode } from './catalogue.js';
import { isKError, type ValidationIssue } from './kerror.js';
import { isErrorStatus, statusCodeName, statusTitle } from './status.js';

/** RFC 9457 body, plus a stable `code` and, for validation failures, `errors`. */
export interface ProblemDetails {
  /** Always `'about:blank'`: the status says what kind of problem it is. */
  type: string;
  /** The HTTP reason phrase of `status`, e.g. `Not Found`. */
  title: string;
  /** The HTTP status. */
  status: number;
  /** What went wrong, for a human. */
  detail: string;
  /** Stable machine code, e.g. `NOT_FOUND`. */
  code: string;
  /** Per-field validation failures. */
  errors?: ValidationIssue[];
  /** The request path, when the error handler sets it. */
  instance?: string;
  /** The request id, so a user's report leads to the log entry; absent when ids are off. */
  requestId?: string;
}

/** Content type of every error response. */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** The detail of every 500 whose message was not written for clients. */
const INTERNAL_DETAIL = 'An unexpected error occurred.';

/** Fastify's own client errors, by code: what the client sees instead. */
const FASTIFY_ERRORS: Readonly<Record<string, readonly [KeelsonErrorCode, string]>> = {
  FST_ERR_CTP_INVALID_JSON_BODY: ['MALFORMED_JSON', 'Request body is not valid JSON.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [
    'MALFORMED_JSON',
    'Request body is empty but Content-Type is application/json.',
  ],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [
    'INVALID_CONTENT_LENGTH',
    'Request body size did not match Content-Length.',
  ],
  FST_ERR_CTP_BODY_TOO_LARGE: ['PAYLOAD_TOO_LARGE', 'Request body is too large.'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [
    'UNSUPPORTED_MEDIA_TYPE',
    'Content-Type of the request body is not supported.',
  ],
};

/**
 * The diagnostics channel every problem body Keelson makes is published on, as
 * `{ problem, error }` (`error`: the thrown value it was made from, if any): a way to watch
 * every error answer from outside, e.g. to count codes. Costs nothing without a subscriber.
 */
export const PROBLEM_CHANNEL = 'keelson:problem';
const problems = channel(PROBLEM_CHANNEL);

function problem(status: number, code: string, detail: string, errors?: ValidationIssue[]) {
  const body: ProblemDetails = {
    type: 'about:blank',
    title: statusTitle(status),
    status,
    detail,
    code,
  };
  if (errors !== undefined) body.errors = errors;
  return body;
}

/**
 * The problem body of a catalogue code; `detail` defaults to the status title. For answers
 * written without a thrown error (a request Node's parser rejected).
 */
export function catalogueProblem(code: KeelsonErrorCode, detail?: string): ProblemDetails {
  const { status, title } = ERROR_CATALOGUE[code];
  const body = problem(status, code, detail ?? title);
  if (problems.hasSubscribers) problems.publish({ problem: body, error: undefined });
  return body;
}

function known(code: KeelsonErrorCode, detail: string, errors?: ValidationIssue[]) {
  return problem(ERROR_CATALOGUE[code].status, code, detail, errors);
}

function internalProblem(): ProblemDetails {
  return known('INTERNAL', INTERNAL_DETAIL);
}

/** Copies issues, keeping only those whose path and message are strings. */
function copyIssues(issues: unknown): ValidationIssue[] | undefined {
  if (!Array.isArray(issues)) return undefined;
  const out: ValidationIssue[] = [];
  for (const issue of issues as unknown[]) {
    const { path, message } = (issue ?? {}) as { path?: unknown; message?: unknown };
    if (typeof path === 'string' && typeof message === 'string') out.push({ path, message });
  }
  return out;
}

/** Fastify's schema validation (ajv) → 422 with one issue per failed keyword. */
function fastifyValidationProblem(err: Record<string, unknown>): ProblemDetails {
  const context = err.validationContext === 'querystring' ? 'query' : err.validationContext;
  const prefix = typeof context === 'string' ? context : '';
  const issues: ValidationIssue[] = [];
  for (const item of Array.isArray(err.validation) ? (err.validation as unknown[]) : []) {
    const { instancePath, message } = (item ?? {}) as Record<string, unknown>;
    const rest = typeof instancePath === 'string' ? instancePath.split('/').filter(Boolean) : [];
    issues.push({
      path: [prefix, ...rest].filter(Boolean).join('.'),
      message: typeof message === 'string' ? message : 'is invalid',
    });
  }
  return known('VALIDATION_FAILED', 'Request validation failed.', issues);
}

function toProblemUnsafe(err: unknown): ProblemDetails {
  if (isKError(err)) {
    const { statusCode, code, message } = err;
    if (!isErrorStatus(statusCode) || typeof code !== 'string' || typeof message !== 'string') {
      return internalProblem();
    }
    return problem(statusCode, code, message, copyIssues(err.errors));
  }
  if (typeof err !== 'object' || err === null) return internalProblem();
  const e = err as Record<string, unknown>;
  const statusCode = e.statusCode;
  if (!isErrorStatus(statusCode) || statusCode >= 500) return internalProblem();
  const code = e.code;
  if (typeof code === 'string' && code.startsWith('FST_')) {
    const mapped = FASTIFY_ERRORS[code];
    if (mapped !== undefined) return known(mapped[0], mapped[1]);
    if (code === 'FST_ERR_VALIDATION') return fastifyValidationProblem(e);
  }
  if (statusCode === 400 && err instanceof SyntaxError) {
    // A JSON parser's message quotes the body back; say what happened instead.
    return known('MALFORMED_JSON', 'Request body is not valid JSON.');
  }
  // A 4xx was raised on purpose (Fastify, http-errors, a plugin): its message is meant for the
  // client, unless it says otherwise with http-errors' `expose: false`.
  const message = e.message;
  const safe = typeof message === 'string' && message !== '' && e.expose !== false;
  return problem(statusCode, statusCodeName(statusCode), safe ? message : statusTitle(statusCode));
}

/**
 * Turns any thrown value into a problem body. A KError keeps its status, code, message and
 * issues; a 4xx raised by Fastify or a plugin keeps its status; anything else is a 500 with a
 * generic detail: no message, cause or stack of an unexpected error reaches the client.
 * Never throws.
 * @example reply.code(p.status).type(PROBLEM_CONTENT_TYPE).send(p) // where p = toProblem(err)
 */
export function toProblem(err: unknown): ProblemDetails {
  let body: ProblemDetails;
  try {
    body = toProblemUnsafe(err);
  } catch {
    body = internalProblem();
  }
  if (problems.hasSubscribers) problems.publish({ problem: body, error: err });
  return body;
}
