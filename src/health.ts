import type { HealthChecker } from './contracts.js';
import { get } from './routing/builders.js';
import { staticSchema } from './routing/static-schema.js';
import type { RouteDef } from './routing/types.js';

/** `UP` or `DOWN`. */
export type HealthStatus = 'UP' | 'DOWN';

/** The body of `GET /health`. */
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

const HealthBody = staticSchema<HealthReport>({
  type: 'object',
  description: 'The health of the service and of each dependency it checks.',
  properties: {
    status: { type: 'string', enum: ['UP', 'DOWN'] },
    service: { type: 'string' },
    version: { type: 'string' },
    checks: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'Checker name → `UP`, `UP: <warning>` or `DOWN: <reason>`.',
    },
  },
  required: ['status', 'service', 'version', 'checks'],
  additionalProperties: false,
});

const LiveBody = staticSchema<{ status: 'UP' }>({
  type: 'object',
  properties: { status: { type: 'string', enum: ['UP'] } },
  required: ['status'],
  additionalProperties: false,
});

/** The registered health checkers, and running them. */
export class HealthRegistry {
  readonly #checkers: { name: string; checker: HealthChecker }[] = [];

  /** Adds a checker; its name must be a non-empty string not used by another. */
  add(checker: HealthChecker): void {
    if (!checker || typeof checker.name !== 'function' || typeof checker.check !== 'function') {
      throw new TypeError('a health checker must have name() and check(signal) methods');
    }
    const name = checker.name();
    if (typeof name !== 'string' || name === '') {
      throw new TypeError(
        `a health checker's name() must return a non-empty string, got ${JSON.stringify(name)}`,
      );
    }
    if (this.#checkers.some((c) => c.name === name)) {
      throw new Error(`a health checker named "${name}" is already registered`);
    }
    this.#checkers.push({ name, checker });
  }

  /** How many checkers are registered. */
  get size(): number {
    return this.#checkers.length;
  }

  /**
   * Runs every checker in parallel. Each gets its own signal, aborted when `signal` aborts or
   * when it passes `timeoutMs`; a checker past its timeout is DOWN without being waited for.
   */
  async run(
    signal: AbortSignal,
    timeoutMs: number,
  ): Promise<{ status: HealthStatus; checks: Record<string, string> }> {
    const results = await Promise.all(
      this.#checkers.map((c) => runOne(c.checker, signal, timeoutMs)),
    );
    const checks: Record<string, string> = {};
    let status: HealthStatus = 'UP';
    for (let i = 0; i < results.length; i++) {
      const r = results[i]!;
      checks[this.#checkers[i]!.name] = r;
      if (r.startsWith('DOWN')) status = 'DOWN';
    }
    return { status, checks };
  }
}

async function runOne(
  checker: HealthChecker,
  outer: AbortSignal,
  timeoutMs: number,
): Promise<string> {
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(outer.reason);
  if (outer.aborted) onOuterAbort();
  else outer.addEventListener('abort', onOuterAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<string>((resolve) => {
    timer = setTimeout(() => {
      const reason = `timed out after ${timeoutMs} ms`;
      controller.abort(new Error(reason));
      resolve(`DOWN: ${reason}`);
    }, timeoutMs);
  });
  const checked = (async () => {
    const warning = await checker.check(controller.signal);
    return typeof warning === 'string' && warning !== '' ? `UP: ${warning}` : 'UP';
  })().catch((err: unknown) => `DOWN: ${reasonOf(err)}`);
  try {
    return await Promise.race([checked, timedOut]);
  } finally {
    clearTimeout(timer);
    outer.removeEventListener('abort', onOuterAbort);
  }
}

function reasonOf(err: unknown): string {
  try {
    const message =
      err instanceof Error ? err.message : typeof err === 'string' ? err : String(err);
    return message || 'check failed';
  } catch {
    return 'check failed';
  }
}

/** What the health routes need from the app. */
export interface HealthRouteOptions {
  readonly registry: HealthRegistry;
  readonly service: string;
  readonly version: string;
  readonly timeoutMs: number;
}

/** `GET /health` (runs the checkers) and `GET /health/live` (runs none), as ordinary routes. */
export function healthRoutes({
  registry,
  service,
  version,
  timeoutMs,
}: HealthRouteOptions): RouteDef[] {
  return [
    get(
      '/health',
      {
        summary: 'Health of the service and its dependencies',
        description:
          'Runs every registered health checker in parallel. 200 when all are UP, 503 otherwise.',
        tags: ['health'],
        operationId: 'getHealth',
        responses: { 200: HealthBody, 503: HealthBody },
      },
      async (c) => {
        if (registry.size === 0) return { status: 'UP', service, version, checks: {} };
        const { status, checks } = await registry.run(c.signal, timeoutMs);
        const report: HealthReport = { status, service, version, checks };
        return status === 'UP' ? report : c.status(503, report);
      },
    ),
    get(
      '/health/live',
      {
        summary: 'Liveness of the process',
        description: 'Answers 200 without running any checker, for liveness probes.',
        tags: ['health'],
        operationId: 'getHealthLive',
        responses: { 200: LiveBody },
      },
      () => ({ status: 'UP' as const }),
    ),
  ];
}
