/**
 * The registered health checkers, and one run of them shared by every probe that asks.
 * @module
 */
import type { HealthChecker } from '../contracts.js';
import type { HealthStatus } from './report.js';
import { runChecker } from './run-checker.js';

/** The outcome of one run of every checker. */
export interface HealthResult {
  /** `UP` when every checker that affects this probe passed. */
  status: HealthStatus;
  /** Checker name → `UP`, `UP: <warning>` or `DOWN: <reason>`. */
  checks: Record<string, string>;
}

/** How a run of the checkers is bounded and reused. */
export interface HealthRunOptions {
  /** How long each checker may take before it is DOWN. */
  readonly timeoutMs: number;
  /** How long a finished run's result answers later requests; 0: only concurrent ones. */
  readonly cacheMs: number;
}

/** Which checkers a run covers: all of them (`/health`, readiness), or the liveness ones. */
export type HealthScope = 'all' | 'liveness';

const AFFECTS = ['readiness', 'liveness', 'none'] as const;

interface Registered {
  readonly name: string;
  readonly checker: HealthChecker;
  readonly affects: (typeof AFFECTS)[number];
}

/** The run under way, and the last result, of one scope. */
class SharedRun {
  running: Promise<HealthResult> | undefined;
  cached: HealthResult | undefined;
  cachedUntil = 0;
}

/** The registered health checkers, and running them. */
export class HealthRegistry {
  readonly #checkers: Registered[] = [];
  readonly #runs: Record<HealthScope, SharedRun> = {
    all: new SharedRun(),
    liveness: new SharedRun(),
  };

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
    const affects = checker.affects ?? 'readiness';
    if (!AFFECTS.includes(affects)) {
      throw new TypeError(
        `health checker "${name}": affects should be 'readiness', 'liveness' or 'none', instead got ${JSON.stringify(affects)}`,
      );
    }
    if (this.#checkers.some((c) => c.name === name)) {
      throw new Error(`a health checker named "${name}" is already registered`);
    }
    this.#checkers.push({ name, checker, affects });
  }

  /** How many checkers are registered. */
  get size(): number {
    return this.#checkers.length;
  }

  /** How many checkers affect liveness. */
  get livenessSize(): number {
    return this.#checkers.filter((c) => c.affects === 'liveness').length;
  }

  /**
   * The result of running the checkers of `scope` in parallel; `status` counts only those that
   * affect a probe (`affects: 'none'` is reported, never DOWN). Requests that arrive while a
   * run is in progress share it, and a finished run answers for `cacheMs` more: a storm of
   * probes runs the checkers once, not once per probe. A run is not tied to any one request,
   * so a probe that gives up does not abort the checkers the others wait on; the timeout
   * bounds it.
   */
  run({ timeoutMs, cacheMs }: HealthRunOptions, scope: HealthScope = 'all'): Promise<HealthResult> {
    const shared = this.#runs[scope];
    if (shared.running) return shared.running;
    if (shared.cached && performance.now() < shared.cachedUntil) {
      return Promise.resolve(shared.cached);
    }
    const running = this.#runAll(timeoutMs, scope).finally(() => {
      shared.running = undefined;
    });
    shared.running = running;
    if (cacheMs > 0) {
      void running.then((result) => {
        shared.cached = result;
        shared.cachedUntil = performance.now() + cacheMs;
      });
    }
    return running;
  }

  async #runAll(timeoutMs: number, scope: HealthScope): Promise<HealthResult> {
    const checkers =
      scope === 'all' ? this.#checkers : this.#checkers.filter((c) => c.affects === 'liveness');
    const results = await Promise.all(checkers.map((c) => runChecker(c.checker, timeoutMs)));
    const checks: Record<string, string> = {};
    let status: HealthStatus = 'UP';
    for (let i = 0; i < results.length; i++) {
      const r = results[i]!;
      const { name, affects } = checkers[i]!;
      checks[name] = r;
      if (r.startsWith('DOWN') && affects !== 'none') status = 'DOWN';
    }
    return { status, checks };
  }
}
