/**
 * The bodies the health routes answer, as types and as the schemas the docs show.
 * @module
 */
import { staticSchema } from '../routing/static-schema.js';

/** `UP` or `DOWN`. */
export type HealthStatus = 'UP' | 'DOWN';

/** The body of `GET /health` and `GET /health/ready`. */
export interface HealthReport {
  /** `UP` when every checker passed (or there are none), else `DOWN`. */
  status: HealthStatus;
  /** The service name. */
  service: string;
  /** The service version. */
  version: string;
  /** Checker name → `UP`, `UP: <warning>` or `DOWN: <reason>`. */
  checks: Record<string, string>;
}

/** The key of `checks` that says a report is DOWN because the service is shutting down. */
export const SHUTDOWN_CHECK = 'shutdown';

/** The `checks` of a report answered once shutdown has begun: no checker is run. */
export const SHUTTING_DOWN: Readonly<Record<string, string>> = Object.freeze({
  [SHUTDOWN_CHECK]: 'DOWN: the service is shutting down',
});

/** The schema of a HealthReport. */
export const HealthBody = staticSchema<HealthReport>({
  type: 'object',
  description: 'The health of the service and of each dependency it checks.',
  properties: {
    status: { type: 'string', enum: ['UP', 'DOWN'] },
    service: { type: 'string' },
    version: { type: 'string' },
    checks: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: `Checker name → \`UP\`, \`UP: <warning>\` or \`DOWN: <reason>\`; \`${SHUTDOWN_CHECK}\` once shutdown has begun.`,
    },
  },
  required: ['status', 'service', 'version', 'checks'],
  additionalProperties: false,
});

/** The body of `GET /health/live`: `checks` only when liveness checkers are registered. */
export interface LiveReport {
  /** `UP` when every liveness checker passed (or there are none), else `DOWN`. */
  status: HealthStatus;
  /** Liveness checker name → `UP`, `UP: <warning>` or `DOWN: <reason>`. */
  checks?: Record<string, string>;
}

/** The schema of the liveness body. */
export const LiveBody = staticSchema<LiveReport>({
  type: 'object',
  description:
    "The process is running and its event loop answers; with checkers registered as `affects: 'liveness'`, their results.",
  properties: {
    status: { type: 'string', enum: ['UP', 'DOWN'] },
    checks: { type: 'object', additionalProperties: { type: 'string' } },
  },
  required: ['status'],
  additionalProperties: false,
});
