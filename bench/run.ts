// Requests per second, p99 latency, startup time and memory of Keelson against Fastify, NestJS,
// Hono, Express, Elysia on Bun (`--contenders bun`) and the floors, each serving the same three
// routes from its own process.
// `npm run bench` builds keelson first; see bench/README.md, section "Request path".
//
//   npm run bench                                  5 rounds × 5 s, every contender and route
//   npm run bench -- --rounds 1 --duration 1 --routes hello     a quick pass
//   npm run bench -- --check                       only check that the servers answer alike
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkContender } from './http/check.js';
import type { Contender, Route } from './http/contenders.js';
import { type BenchDatabase, startBenchDatabase } from './http/database.js';
import { type Options, readOptions } from './http/options.js';
import { renderReport } from './http/report.js';
import { type Results, type Sample, saveResults } from './http/results.js';
import { runtimeCommand, versionOf } from './http/runtime.js';
import { type RunningServer, startServer } from './http/server.js';
import { ensureWrk, wrk } from './http/wrk.js';

const SERVER_CPU = 0;
const WRK_CPU = 1;
const PEERS = [
  'fastify',
  '@fastify/cors',
  'pino',
  'sonic-boom',
  'zod',
  '@nestjs/core',
  '@nestjs/platform-fastify',
  'hono',
  '@hono/node-server',
  '@hono/zod-validator',
  'express',
  'elysia',
];

let current: RunningServer | undefined;
let database: BenchDatabase | undefined;

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2), process.env);
  const bun = options.contenders.some((c) => c.runtime === 'bun') ? bunOrExit() : undefined;
  if (!existsSync(fileURLToPath(new URL('../dist/index.js', import.meta.url)))) {
    throw new Error('dist/ is missing: run `npm run build` first (`npm run bench` does)');
  }
  const logs = mkdtempSync(join(tmpdir(), 'keelson-bench-http-'));
  try {
    if (options.db) {
      database = await startBenchDatabase();
      // startServer passes the environment on to every contender.
      Object.assign(process.env, database.env);
      log(`PostgreSQL ${database.version}: 10,000 users`);
    }
    for (const contender of options.contenders) {
      await checkContender(contender, join(logs, `check-${contender.name}.log`));
      log(`check ${contender.name}: answers alike`);
    }
    if (options.checkOnly) return;
    const wrkVersion = ensureWrk();
    const pinned = !options.unpinned && cpus().length >= 2 && has('taskset');
    if (!pinned) log('server and wrk are not pinned to separate cores');
    const runs = options.rounds * options.routes.length * options.contenders.length;
    const minutes = (runs * (options.warmup + options.duration + 1.5)) / 60;
    log(`${runs} runs, about ${Math.ceil(minutes)} min`);

    const startedAt = new Date().toISOString();
    const samples = await measure(options, pinned, logs);
    const results: Results = {
      startedAt,
      command: commandLine(),
      options: { ...pick(options), pinned },
      machine: machine(),
      versions: {
        ...versions(wrkVersion),
        ...(bun ? { bun: versionOf(bun) ?? bun } : {}),
        ...(database ? dbVersions(database.version) : {}),
      },
      contenders: options.contenders.map(({ name, label }) => ({ name, label })),
      routes: options.routes.map(({ name, label }) => ({ name, label })),
      samples,
      openapi: options.db ? 'not measured with --db' : openapiBench(),
    };
    log(`results: ${saveResults(results)}`);
    process.stdout.write(`${renderReport(results)}\n`);
  } finally {
    rmSync(logs, { recursive: true, force: true });
    await database?.stop();
  }
}

/** Round by round, route by route, every contender once, in an order rotated each round. */
async function measure(options: Options, pinned: boolean, logs: string): Promise<Sample[]> {
  const samples: Sample[] = [];
  const { contenders } = options;
  for (let round = 1; round <= options.rounds; round++) {
    for (const route of options.routes) {
      const shift = (round - 1) % contenders.length;
      const order = [...contenders.slice(shift), ...contenders.slice(0, shift)];
      for (const contender of order) {
        const logFile = join(logs, `${contender.name}-${route.name}-${round}.log`);
        const sample = await measureOne(options, pinned, logFile, round, route, contender);
        rmSync(logFile, { force: true });
        samples.push(sample);
        log(
          `round ${round} ${route.name} ${contender.name}: ` +
            `${Math.round(sample.requestsPerSecond)} req/s, p99 ${sample.p99Ms.toFixed(2)} ms, ` +
            `startup ${sample.startupMs.toFixed(0)} ms, RSS ${(sample.rssBytes / 2 ** 20).toFixed(1)} MB`,
        );
      }
    }
  }
  return samples;
}

async function measureOne(
  options: Options,
  pinned: boolean,
  logFile: string,
  round: number,
  route: Route,
  contender: Contender,
): Promise<Sample> {
  const server = await startServer(contender, { logFile, cpu: pinned ? SERVER_CPU : undefined });
  current = server;
  try {
    const load = {
      url: `http://127.0.0.1:${server.port}${route.path}`,
      connections: options.connections,
      script: route.script,
      cpu: pinned ? WRK_CPU : undefined,
    };
    if (options.warmup > 0) await wrk({ ...load, seconds: options.warmup });
    const cpuBefore = server.cpuSeconds();
    const result = await wrk({ ...load, seconds: options.duration });
    const cpuSeconds = server.cpuSeconds() - cpuBefore;
    if (result.non2xx > 0) {
      throw new Error(
        `${contender.name} ${route.label}: ${result.non2xx} answers outside 2xx under load`,
      );
    }
    if (result.socketErrors > 0) {
      log(`${contender.name} ${route.label}: ${result.socketErrors} socket errors`);
    }
    return {
      round,
      route: route.name,
      contender: contender.name,
      requestsPerSecond: result.requestsPerSecond,
      p99Ms: result.p99Ms,
      requests: result.requests,
      socketErrors: result.socketErrors,
      startupMs: server.startupMs,
      rssBytes: server.rss(),
      cpuMicrosPerRequest: result.requests > 0 ? (cpuSeconds * 1e6) / result.requests : Number.NaN,
    };
  } finally {
    await server.stop();
    current = undefined;
  }
}

/** Runs bench/openapi.ts when it exists and returns what it printed. */
function openapiBench(): string | undefined {
  const file = fileURLToPath(new URL('./openapi.ts', import.meta.url));
  if (!existsSync(file) || process.env.OPENAPI === '0') return undefined;
  log('bench/openapi.ts');
  const child = spawnSync(process.execPath, ['--import', 'tsx', file], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (child.status !== 0) return `bench/openapi.ts failed (exit ${child.status})`;
  return child.stdout;
}

function pick({ rounds, duration, warmup, connections }: Options) {
  return { rounds, duration, warmup, connections };
}

function versions(wrkVersion: string): Record<string, string> {
  // Read from node_modules directly: some packages do not export their package.json.
  const versionOf = (path: string) =>
    (JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as { version: string })
      .version;
  const found: Record<string, string> = { keelson: versionOf('../package.json') };
  for (const name of PEERS) found[name] = versionOf(`../node_modules/${name}/package.json`);
  found.node = process.versions.node;
  found.wrk = wrkVersion.replace(/^wrk\s+/, '').split(' ')[0] ?? wrkVersion;
  return found;
}

/** The Bun the Bun contenders run on; ends the process with one line when there is none. */
function bunOrExit(): string {
  try {
    return runtimeCommand('bun');
  } catch (err) {
    log((err as Error).message);
    process.exit(1);
  }
}

function dbVersions(postgresql: string): Record<string, string> {
  const versionOf = (name: string) =>
    (
      JSON.parse(
        readFileSync(new URL(`../node_modules/${name}/package.json`, import.meta.url), 'utf8'),
      ) as { version: string }
    ).version;
  return {
    postgresql,
    pg: versionOf('pg'),
    '@electric-sql/pglite': versionOf('@electric-sql/pglite'),
  };
}

function machine(): string {
  const cpu = cpus();
  return `${cpu.length} cores (${cpu[0]?.model ?? 'unknown CPU'}), ${process.platform} ${process.arch}`;
}

function commandLine(): string {
  const args = process.argv.slice(2);
  const env = ['ROUNDS', 'DURATION', 'WARMUP', 'CONNECTIONS', 'CONTENDERS', 'ROUTES', 'BENCH_DB']
    .filter((name) => process.env[name])
    .map((name) => `${name}=${process.env[name]} `)
    .join('');
  return `${env}npm run bench${args.length ? ` -- ${args.join(' ')}` : ''}`;
}

function has(command: string): boolean {
  return !spawnSync(command, ['--version'], { stdio: 'ignore' }).error;
}

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void (current?.stop() ?? Promise.resolve())
      .then(() => database?.stop())
      .finally(() => process.exit(130));
  });
}

await main();
