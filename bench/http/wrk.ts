// Runs wrk (installing it from Debian when it is missing) and reads its report.
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** What one wrk run measured. */
export interface WrkResult {
  readonly requestsPerSecond: number;
  /** 99th percentile latency in milliseconds. */
  readonly p99Ms: number;
  readonly requests: number;
  /** Responses with a status outside 2xx and 3xx. */
  readonly non2xx: number;
  /** Connect, read, write and timeout errors together. */
  readonly socketErrors: number;
}

/** How to load one URL. */
export interface WrkOptions {
  readonly url: string;
  readonly seconds: number;
  readonly connections: number;
  /** A Lua script setting the method, body and headers. */
  readonly script?: string | undefined;
  /** The core to pin wrk to with taskset, or undefined to leave it unpinned. */
  readonly cpu: number | undefined;
}

/** wrk's version line; installs wrk with apt-get first when it is not on the PATH. */
export function ensureWrk(): string {
  const version = () => spawnSync('wrk', ['--version'], { encoding: 'utf8' });
  let found = version();
  if (found.error) {
    process.stderr.write('wrk is missing: apt-get install -y wrk\n');
    const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
    for (const step of [
      ['apt-get', 'update'],
      ['apt-get', 'install', '-y', 'wrk'],
    ]) {
      const [command, ...args] = [...sudo, ...step];
      const result = spawnSync(command!, args, { stdio: 'inherit' });
      if (result.status !== 0) throw new Error(`${[command, ...args].join(' ')} failed`);
    }
    found = version();
  }
  // wrk prints its version and usage, and exits 1.
  return `${found.stdout}${found.stderr}`.split('\n')[0]?.trim() ?? 'wrk';
}

/** Loads `url` for `seconds` with one thread and `connections` connections. */
export async function wrk({
  url,
  seconds,
  connections,
  script,
  cpu,
}: WrkOptions): Promise<WrkResult> {
  const wrkArgs = [
    '--threads',
    '1',
    '--connections',
    String(connections),
    '--duration',
    `${seconds}s`,
    '--latency',
    // Every contender gets a cross-origin request, so the CORS code does its work.
    '--header',
    'Origin: http://localhost:8080',
    ...(script ? ['--script', script] : []),
    url,
  ];
  const [command, ...args] =
    cpu === undefined ? ['wrk', ...wrkArgs] : ['taskset', '-c', String(cpu), 'wrk', ...wrkArgs];
  const { stdout } = await run(command!, args, { encoding: 'utf8' });
  return parseWrk(stdout);
}

/** Reads requests per second, p99 latency and errors from wrk's `--latency` report. */
export function parseWrk(report: string): WrkResult {
  const number = (pattern: RegExp): number | undefined => {
    const match = pattern.exec(report)?.[1];
    return match === undefined ? undefined : Number(match);
  };
  const requestsPerSecond = number(/^Requests\/sec:\s+([\d.]+)/m);
  const requests = number(/^\s*(\d+) requests in /m);
  const p99 = /^\s+99(?:\.000)?%\s+([\d.]+)(us|ms|s)\b/m.exec(report);
  if (requestsPerSecond === undefined || requests === undefined || !p99) {
    throw new Error(`cannot read the wrk report:\n${report}`);
  }
  const unit = { us: 0.001, ms: 1, s: 1000 }[p99[2] as 'us' | 'ms' | 's'];
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(
    report,
  );
  const socketErrors = errors ? errors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return {
    requestsPerSecond,
    p99Ms: Number(p99[1]) * unit,
    requests,
    non2xx: number(/Non-2xx or 3xx responses:\s+(\d+)/) ?? 0,
    socketErrors,
  };
}
