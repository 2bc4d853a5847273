/**
 * The `Problem` component: the RFC 9457 body of every error response.
 * @module
 */
import { ERROR_CATALOGUE, isKeelsonErrorCode } from '../errors/index.js';
import type { JsonSchema } from './types.js';

/** The name of the shared problem+json schema in `components.schemas`. */
export const PROBLEM_COMPONENT = 'Problem';

/** The JSON Schema of ProblemDetails (src/errors/problem.ts). */
export const PROBLEM_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'An RFC 9457 problem: every error response has this body.',
  properties: {
    type: { type: 'string', description: 'Always `about:blank`: the status says what it is.' },
    title: { type: 'string', description: 'The reason phrase of the status.' },
    status: { type: 'integer', description: 'The HTTP status.' },
    detail: { type: 'string', description: 'What went wrong, for a human.' },
    code: {
      type: 'string',
      description:
        "A stable machine code, e.g. `NOT_FOUND`. Each response lists the codes Keelson answers there; the service's own codes are its to document.",
    },
    errors: {
      type: 'array',
      description: 'Per-field validation failures (422).',
      items: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'Where, e.g. `body.email`.' },
          message: { type: 'string' },
        },
        required: ['path', 'message'],
      },
    },
    instance: { type: 'string', description: 'The request path.' },
    requestId: {
      type: 'string',
      description:
        'The request id (the `x-request-id` answer header): quote it to find the log entry.',
    },
  },
  required: ['type', 'title', 'status', 'detail', 'code'],
};

/**
 * The error body of one response, its `code` narrowed to `codes`: the Problem (`ref`) with an
 * enum, Keelson's codes first in catalogue order, any others after in name order.
 */
export function problemWithCodes(ref: JsonSchema, codes: ReadonlySet<string>): JsonSchema {
  const ordered = [
    ...Object.keys(ERROR_CATALOGUE).filter((c) => codes.has(c)),
    ...[...codes].filter((c) => !isKeelsonErrorCode(c)).sort(),
  ];
  return {
    allOf: [ref, { type: 'object', properties: { code: { type: 'string', enum: ordered } } }],
  };
}
