// Where a contender's time goes on one route: its server runs under `--cpu-prof` (Node or Bun)
// with wrk's load, and the profile is read over the loaded seconds only, per request: the time
// a server waits for requests is put on the last frame that ran, so the idle seconds before and
// after the load would otherwise swell some random function. `npm run build` first.
//
//   npx tsx bench/profile.ts <contender> <route> [seconds] [rows]   e.g. keelson-bun user 6
//
// The figures are the JavaScript thread's samples, idle moments inside the load included (on a
// shared machine, wrk is not always there to keep the server busy): read them with the server's
// CPU µs per request from `npm run bench`, which the last line prints beside them.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { CONTENDERS, ROUTES } from './http/contenders.js';
import { type FunctionTime, windowTimes } from './http/cpuprofile.js';
import { startServer } from './http/server.js';
import { markdownTable } from './http/table.js';
import { ensureWrk, wrk } from './http/wrk.js';

// Margin cut from each end of the load, so that its start and end do not count.
const MARGIN_MS = 300;

const [who, where, secondsArg, rowsArg] = process.argv.slice(2);
const contender = CONTENDERS.find((c) => c.name === who);
const route = ROUTES.find((r) => r.name === where);
if (!contender || !route) {
  throw new Error(
    `usage: npx tsx bench/profile.ts <contender> <route> [seconds] [rows]\n` +
      `contenders: ${CONTENDERS.map((c) => c.name).join(', ')}\n` +
      `routes: ${ROUTES.map((r) => r.name).join(', ')}`,
  );
}
const seconds = Number(secondsArg ?? 6);
const rows = Number(rowsArg ?? 30);

ensureWrk();
const dir = mkdtempSync(join(tmpdir(), 'keelson-bench-profile-'));
try {
  const spawnedAt = performance.now();
  const server = await startServer(contender, {
    logFile: join(dir, 'requests.log'),
    cpu: 0,
    runtimeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
  });
  const load = {
    url: `http://127.0.0.1:${server.port}${route.path}`,
    connections: 50,
    script: route.script,
    cpu: 1,
  };
  let result: Awaited<ReturnType<typeof wrk>>;
  let fromMs: number;
  let toMs: number;
  let cpuSeconds: number;
  try {
    await delay(200);
    fromMs = performance.now() - spawnedAt + MARGIN_MS;
    const cpuBefore = server.cpuSeconds();
    result = await wrk({ ...load, seconds });
    cpuSeconds = server.cpuSeconds() - cpuBefore;
    toMs = performance.now() - spawnedAt - MARGIN_MS;
  } finally {
    await server.stop();
  }
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  if (file === undefined) throw new Error(`${contender.name} wrote no .cpuprofile in ${dir}`);
  const times = windowTimes(readFileSync(join(dir, file), 'utf8'), fromMs, toMs);
  // Requests in the window, at the load's average rate.
  const requests = (result.requests * (toMs - fromMs)) / (seconds * 1000);
  const perRequest = (micros: number) => (micros / requests).toFixed(2);
  const table = (title: string, pick: (f: FunctionTime) => number) =>
    markdownTable(
      [
        { title, align: 'left' },
        { title: 'µs/request', align: 'right' },
        { title: '%', align: 'right' },
      ],
      [...times.functions]
        .sort((a, b) => pick(b) - pick(a))
        .slice(0, rows)
        .map((f) => [
          f.name.replaceAll('|', '\\|'),
          perRequest(pick(f)),
          ((100 * pick(f)) / times.micros).toFixed(1),
        ]),
    );
  process.stdout.write(
    `${contender.label}, ${route.label}: ${Math.round(result.requestsPerSecond)} req/s; ` +
      `${perRequest(times.micros)} µs of JS-thread samples per request in the window, ` +
      `${((cpuSeconds * 1e6) / result.requests).toFixed(2)} µs of server CPU (all threads)\n\n` +
      `${table('own time (top of the stack)', (f) => f.selfMicros)}\n\n` +
      `${table('with callees', (f) => f.totalMicros)}\n`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
