/**
 * The registered health checkers, and one run of them shared by every probe that asks.
 * @module
 */
import type { HealthChecker } from '../contracts.js';
import type { HealthStatus } from './report.js';
import { runChecker } from './run-checker.js';

/** The outcome of one run of every checker. */
export interface HealthResult {
  /** `UP` when every checker passed. */
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

/** The registered health checkers, and running them. */
export class HealthRegistry {
  readonly #checkers: { name: string; checker: HealthChecker }[] = [];
  #running: Promise<HealthResult> | undefined;
  #cached: HealthResult | undefined;
  #cachedUntil = 0;

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
   * The result of running every checker in parallel. Requests that arrive while a run is in
   * progress share it, and a finished run answers for `cacheMs` more: a storm of probes runs
   * the checkers once, not once per probe. A run is not tied to any one request, so a probe
   * that gives up does not abort the checkers the others wait on; the timeout bounds it.
   */
  run({ timeoutMs, cacheMs }: HealthRunOptions): Promise<HealthResult> {
    if (this.#running) return this.#running;
    if (this.#cached && performance.now() < this.#cachedUntil) {
      return Promise.resolve(this.#cached);
    }
    const running = this.#runAll(timeoutMs).finally(() => {
      this.#running = undefined;
    });
    this.#running = running;
    if (cacheMs > 0) {
      void running.then((result) => {
        this.#cached = result;
        this.#cachedUntil = performance.now() + cacheMs;
      });
    }
    return running;
  }

  async #runAll(timeoutMs: number): Promise<HealthResult> {
    const results = await Promise.all(this.#checkers.map((c) => runChecker(c.checker, timeoutMs)));
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
