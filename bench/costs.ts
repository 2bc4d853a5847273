// What each production default costs per request: Keelson's `GET /users/:id` with every default
// on, then with one turned off at a time, and raw Fastify as the floor. The measure is the
// server's own CPU time per request (user + system, from /proc), which moves less than req/s
// when the machine is shared. `npm run build` first; see bench/README.md, "What each default costs".
// With `--engine bun` the same server runs under Bun with `engine: 'bun'` (Bun.serve), and the
// floors are bare Elysia and Elysia with the same features, both on Bun.
//
//   npx tsx bench/costs.ts [rounds] [--engine fastify|bun]   5 rounds of 4 s by default, interleaved
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { checkContender } from './http/check.js';
import type { Contender } from './http/contenders.js';
import { runtimeCommand, versionOf } from './http/runtime.js';
import { startServer } from './http/server.js';
import { median } from './http/stats.js';
import { markdownTable } from './http/table.js';
import { ensureWrk, wrk } from './http/wrk.js';

const { values, positionals } = parseArgs({
  options: { engine: { type: 'string', default: 'fastify' } },
  allowPositionals: true,
});
if (values.engine !== 'fastify' && values.engine !== 'bun') {
  throw new Error(`--engine should be fastify or bun, got '${values.engine}'`);
}
const BUN = values.engine === 'bun';
const ROUNDS = Number(positionals[0] ?? 5);
const SECONDS = 4;
const file = (name: string) => fileURLToPath(new URL(`./servers/${name}`, import.meta.url));

/** The variants: what is turned off (keelson.mjs reads OFF), and what the row calls it. */
const VARIANTS: readonly [string, string][] = [
  ['', 'every default on'],
  ['log', 'request log off'],
  ['helmet', 'security headers off'],
  ['cors', 'CORS off'],
  ['requestId', 'request ids off'],
  ['response', 'no response schema (no check, no serializer)'],
  ['params', 'no params schema (no validation)'],
  ['log,helmet,cors,requestId,response,params', 'all of the above off'],
];

function contender(off: string, label: string): Contender {
  return {
    name: off || 'all',
    label,
    file: file('keelson.mjs'),
    features: true,
    logsToStdout: true,
    env: BUN ? { OFF: off, ENGINE: 'bun' } : { OFF: off },
    ...(BUN ? { runtime: 'bun', bunServe: true } : {}),
  };
}

const floors: Contender[] = BUN
  ? [
      {
        name: 'elysia',
        label: 'Elysia on Bun (same features)',
        file: file('elysia.mjs'),
        runtime: 'bun',
        bunServe: true,
        features: true,
      },
      {
        name: 'raw',
        label: 'bare Elysia on Bun (no features)',
        file: file('elysia-bare.mjs'),
        runtime: 'bun',
        bunServe: true,
        features: false,
      },
    ]
  : [
      {
        name: 'raw',
        label: 'raw Fastify (no features)',
        file: file('fastify-raw.mjs'),
        features: false,
      },
    ];
const contenders: Contender[] = [
  ...VARIANTS.map(([off, label]) => contender(off, label)),
  ...floors,
];

async function microsecondsPerRequest(who: Contender, logs: string): Promise<number> {
  const server = await startServer(who, { logFile: join(logs, `${who.name}.log`), cpu: 0 });
  try {
    const load = { url: `http://127.0.0.1:${server.port}/users/42`, connections: 50, cpu: 1 };
    await wrk({ ...load, seconds: 1 });
    const before = server.cpuSeconds();
    const result = await wrk({ ...load, seconds: SECONDS });
    if (result.non2xx > 0) throw new Error(`${who.name}: ${result.non2xx} answers outside 2xx`);
    return ((server.cpuSeconds() - before) * 1e6) / result.requests;
  } finally {
    await server.stop();
  }
}

ensureWrk();
const logs = mkdtempSync(join(tmpdir(), 'keelson-bench-costs-'));
const samples = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
try {
  // On Bun, first make sure the server answers through Bun.serve (and answers alike).
  if (BUN) await checkContender(contenders[0]!, join(logs, 'check.log'));
  for (let round = 0; round < ROUNDS; round++) {
    // Rotated each round, so a noisy moment hits every variant alike.
    const order = contenders.map((_, i) => contenders[(i + round) % contenders.length]!);
    for (const who of order) {
      const us = await microsecondsPerRequest(who, logs);
      samples.get(who.name)!.push(us);
      process.stderr.write(`round ${round + 1} ${who.name}: ${us.toFixed(2)} µs/request\n`);
    }
  }
} finally {
  rmSync(logs, { recursive: true, force: true });
}

const all = median(samples.get('all')!);
const rows = contenders.map((c) => {
  const us = median(samples.get(c.name)!);
  return [c.label, us.toFixed(2), c.name === 'all' ? '–' : (us - all).toFixed(2)];
});
const on = BUN
  ? `Bun ${versionOf(runtimeCommand('bun'))}, engine 'bun'`
  : `Node ${process.version}`;
process.stdout.write(
  `GET /users/:id, ${on}, ${ROUNDS} rounds of ${SECONDS} s, server CPU µs per request (median)\n\n` +
    markdownTable(
      [
        { title: `Keelson, production${BUN ? ', Bun.serve engine' : ''}`, align: 'left' },
        { title: 'CPU µs/request', align: 'right' },
        { title: 'Δ vs every default on', align: 'right' },
      ],
      rows,
    ) +
    '\n',
);
