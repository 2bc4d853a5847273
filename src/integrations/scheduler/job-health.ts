import type { HealthChecker } from '../../contracts.js';

/** Options of `jobs.healthChecker()`. */
export interface JobHealthOptions {
  /** The key of the checker in the health body. @default 'scheduler' */
  name?: string;
  /**
   * Which jobs turn the checker DOWN (and `/health` 503) while their last run failed: none, any,
   * or the named ones. Any other failure shows as `UP: job … failed: …`, so one failing job does
   * not take every replica out of the load balancer. @default 'none'
   */
  failOn?: 'none' | 'any' | readonly string[];
  /** Which probe its DOWN fails (see HealthChecker). @default 'readiness' */
  affects?: HealthChecker['affects'];
}

/** The last outcome of a job, as the health checker reads it. */
export interface JobOutcome {
  readonly name: string;
  readonly failed: boolean;
  readonly lastError: unknown;
}

/** A health checker over the jobs `outcomes()` lists. */
export function jobHealthChecker(
  outcomes: () => Iterable<JobOutcome>,
  { name = 'scheduler', failOn = 'none', affects = 'readiness' }: JobHealthOptions = {},
): HealthChecker {
  const critical = (job: string) =>
    failOn === 'any' || (Array.isArray(failOn) && failOn.includes(job));
  return {
    name: () => name,
    affects,
    check() {
      const failed = [...outcomes()].filter((o) => o.failed);
      if (failed.length === 0) return;
      const text = failed.map((o) => `job ${o.name} failed: ${messageOf(o.lastError)}`).join('; ');
      if (failed.some((o) => critical(o.name))) throw new Error(text);
      return text;
    },
  };
}

function messageOf(err: unknown): string {
  try {
    return err instanceof Error ? err.message : String(err);
  } catch {
    return 'an unprintable error';
  }
}
