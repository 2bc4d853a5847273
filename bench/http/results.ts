// What a benchmark run records, and where it is kept.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One measured run: one contender serving one route in one round, in a fresh process. */
export interface Sample {
  readonly round: number;
  readonly route: string;
  readonly contender: string;
  readonly requestsPerSecond: number;
  readonly p99Ms: number;
  readonly requests: number;
  readonly socketErrors: number;
  /** Spawn to the first 200, in milliseconds. */
  readonly startupMs: number;
  /** VmRSS right after the measured load, in bytes. */
  readonly rssBytes: number;
  /** The server's own CPU time (user + system) per request of the measured load, in µs. */
  readonly cpuMicrosPerRequest?: number;
}

/** A whole run of the benchmark. */
export interface Results {
  readonly startedAt: string;
  readonly command: string;
  readonly options: {
    readonly rounds: number;
    readonly duration: number;
    readonly warmup: number;
    readonly connections: number;
    readonly pinned: boolean;
  };
  readonly machine: string;
  /** Package name → installed version, plus node and wrk. */
  readonly versions: Readonly<Record<string, string>>;
  readonly contenders: readonly { readonly name: string; readonly label: string }[];
  readonly routes: readonly { readonly name: string; readonly label: string }[];
  readonly samples: readonly Sample[];
  /** What bench/openapi.ts printed, when it exists. */
  readonly openapi: string | undefined;
}

/** Writes `results` to bench/results/http-<time>.json and returns the path. */
export function saveResults(results: Results): string {
  const dir = fileURLToPath(new URL('../results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const file = `${dir}http-${results.startedAt.replace(/[:.]/g, '-')}.json`;
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  return file;
}
