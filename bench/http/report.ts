// The Markdown report of a run, ready to paste into bench/README.md.
import { BASELINE, BUN_BASELINE, DB_BASELINE, FLOOR } from './contenders.js';
import type { Results, Sample } from './results.js';
import { median, medianRatio } from './stats.js';
import { type Column, markdownTable } from './table.js';

const KEELSON = 'keelson';
const KEELSON_BUN = 'keelson-bun';

/** The whole report: how it was measured, the tables, and the targets. */
export function renderReport(results: Results): string {
  const { options } = results;
  const versions = Object.entries(results.versions)
    .map(([name, version]) => `${name} ${version}`)
    .join(', ');
  return [
    `- ${versions}`,
    `- ${results.machine}`,
    `- \`${results.command}\`: ${plural(options.rounds, 'round')}; in each round every route of every ` +
      'contender, contenders in rotated order, each run in a fresh process ' +
      `(${options.pinned ? 'server on core 0, wrk on core 1' : 'unpinned'}); ` +
      `${options.warmup} s warm-up then ${options.duration} s of wrk with 1 thread and ` +
      `${options.connections} connections; medians over rounds, ratio = median of the ` +
      'per-round ratios',
    '',
    throughputTable(results),
    '',
    startupTable(results),
    '',
    openapiSection(results),
    '',
    targetsTable(results),
  ].join('\n');
}

const left = (title: string): Column => ({ title, align: 'left' });
const right = (title: string): Column => ({ title, align: 'right' });

function throughputTable(results: Results): string {
  // The database row compares with Fastify + pg; the others with Fastify and raw Fastify.
  const db = results.samples.some((s) => s.contender === DB_BASELINE);
  const present = (name: string) => results.samples.some((s) => s.contender === name);
  const bases: [string, string][] = db
    ? [[DB_BASELINE, '× Fastify + pg by hand']]
    : (
        [
          [BASELINE, '× Fastify by hand'],
          [BUN_BASELINE, '× Elysia'],
          [FLOOR, '× raw Fastify'],
        ] as [string, string][]
      ).filter(([name]) => present(name));
  const rows: string[][] = [];
  for (const route of results.routes) {
    for (const contender of results.contenders) {
      const rps = series(results, (s) => s.requestsPerSecond, contender.name, route.name);
      if (rps.length === 0) continue;
      const p99 = series(results, (s) => s.p99Ms, contender.name, route.name);
      const ratio = (base: string) =>
        fixed(
          medianRatio(
            rps,
            series(results, (s) => s.requestsPerSecond, base, route.name),
          ),
        );
      rows.push([
        route.label,
        contender.label,
        thousands(median(rps)),
        fixed(median(p99)),
        ...bases.map(([base]) => ratio(base)),
        // Server CPU per request moves less than req/s when the machine is shared.
        fixed(
          median(
            series(results, (s) => s.cpuMicrosPerRequest ?? Number.NaN, contender.name, route.name),
          ),
        ),
      ]);
    }
  }
  return markdownTable(
    [
      left('route'),
      left('contender'),
      right('req/s'),
      right('p99 ms'),
      ...bases.map(([, title]) => right(title)),
      right('server CPU µs/request'),
    ],
    rows,
  );
}

function startupTable(results: Results): string {
  // Ratios to raw Fastify, and to Elysia when it ran.
  const bases: [string, string][] = [[FLOOR, '× raw Fastify']];
  if (results.samples.some((s) => s.contender === BUN_BASELINE)) {
    bases.push([BUN_BASELINE, '× Elysia']);
  }
  const rows = results.contenders.map((contender) => {
    const startup = series(results, (s) => s.startupMs, contender.name);
    const rss = series(results, (s) => s.rssBytes, contender.name);
    const ratios = (pick: (s: Sample) => number, own: number[]) =>
      bases.map(([base]) => fixed(medianRatio(own, series(results, pick, base))));
    return [
      contender.label,
      fixed(median(startup), 0),
      ...ratios((s) => s.startupMs, startup),
      fixed(median(rss) / 2 ** 20, 1),
      ...ratios((s) => s.rssBytes, rss),
    ];
  });
  const titles = bases.map(([, title]) => right(title));
  return markdownTable(
    [
      left('contender'),
      right('startup ms (spawn → first 200)'),
      ...titles,
      right('RSS MB after load'),
      ...titles,
    ],
    rows,
  );
}

function openapiSection(results: Results): string {
  if (results.openapi !== undefined) {
    return `OpenAPI document for 1,000 routes (\`bench/openapi.ts\`):\n\n${results.openapi.trim()}`;
  }
  return markdownTable(
    [left('measure'), right('Keelson')],
    [['OpenAPI document for 1,000 routes', 'TODO: bench/openapi.ts']],
  );
}

// The goals of issue 17 (bench/README.md): per route, the contender, the reference, the ratio.
const RPS_TARGETS: readonly [string, string, string, number][] = [
  [KEELSON, BASELINE, 'Fastify by hand', 1.0],
  [KEELSON, FLOOR, 'raw Fastify', 0.85],
  ['keelson-dev', FLOOR, 'raw Fastify (development mode)', 0.75],
  [KEELSON, 'nest', 'NestJS on Fastify', 1.5],
  [KEELSON, 'hono', 'Hono', 1.5],
  ['keelson-db', DB_BASELINE, 'Fastify + pg by hand (one row through db.sql)', 0.95],
  [KEELSON_BUN, BUN_BASELINE, 'Elysia on Bun (Bun.serve engine)', 0.8],
];

// The startup and memory goals: the contender, the reference, what the row calls it, the limits.
const LIMITS: readonly [string, string, string, { startup: number; RSS: number }][] = [
  [KEELSON, FLOOR, 'raw Fastify', { startup: 1.25, RSS: 1.1 }],
  [KEELSON_BUN, BUN_BASELINE, 'Elysia (Bun.serve engine)', { startup: 2, RSS: 1.5 }],
];

function targetsTable(results: Results): string {
  const has = (name: string) => results.samples.some((s) => s.contender === name);
  if (!has(KEELSON) && !has('keelson-db') && !has(KEELSON_BUN)) return '';
  const rows: string[][] = [];
  for (const route of results.routes) {
    const rps = (who: string) => series(results, (s) => s.requestsPerSecond, who, route.name);
    for (const [who, name, label, target] of RPS_TARGETS) {
      if (!has(who) || !has(name)) continue;
      const ratio = medianRatio(rps(who), rps(name));
      rows.push([
        `${route.label}: req/s ≥ ${fixed(target)} × ${label}`,
        fixed(ratio),
        mark(ratio >= target),
      ]);
    }
    const cpu = (who: string) =>
      series(results, (s) => s.cpuMicrosPerRequest ?? Number.NaN, who, route.name);
    if (has(KEELSON_BUN) && has(BUN_BASELINE)) {
      // The server's CPU per request moves less than req/s on a shared machine.
      const ratio = medianRatio(cpu(BUN_BASELINE), cpu(KEELSON_BUN));
      rows.push([
        `${route.label}: server CPU per request, Elysia ÷ Keelson on Bun.serve (≥ 0.80)`,
        fixed(ratio),
        mark(ratio >= 0.8),
      ]);
    }
    if (has('keelson-db') && has(DB_BASELINE)) {
      rows.push([
        `${route.label}: server CPU per request, Keelson ÷ Fastify + pg (≤ 1.05)`,
        fixed(medianRatio(cpu('keelson-db'), cpu(DB_BASELINE))),
        mark(medianRatio(cpu('keelson-db'), cpu(DB_BASELINE)) <= 1.05),
      ]);
    }
    if (has('keelson-1000')) {
      const ratio = medianRatio(rps('keelson-1000'), rps(KEELSON));
      rows.push([
        `${route.label}: 1,000 more routes cost nothing (≥ 0.95 × Keelson)`,
        fixed(ratio),
        mark(ratio >= 0.95),
      ]);
    }
    if (has('keelson-mw10')) {
      rows.push([
        `${route.label}: µs per no-op middleware (10 vs 0, median of rounds)`,
        fixed(middlewareSlope(rps('keelson-mw10'), rps(KEELSON), 10)),
        '–',
      ]);
    }
  }
  for (const [who, base, label, limits] of LIMITS) {
    if (!has(who) || !has(base)) continue;
    const measures: ['startup' | 'RSS', (s: Sample) => number][] = [
      ['startup', (s) => s.startupMs],
      ['RSS', (s) => s.rssBytes],
    ];
    for (const [what, pick] of measures) {
      const ratio = medianRatio(series(results, pick, who), series(results, pick, base));
      rows.push([
        `${what} ≤ ${limits[what]} × ${label}`,
        fixed(ratio),
        mark(ratio <= limits[what]),
      ]);
    }
  }
  return markdownTable([left('Keelson target'), right('measured'), left('met')], rows);
}

/** Microseconds each of `count` middleware adds to a request, from runs paired by round. */
function middlewareSlope(withMiddleware: number[], without: number[], count: number): number {
  const n = Math.min(withMiddleware.length, without.length);
  const perRound: number[] = [];
  for (let i = 0; i < n; i++) {
    perRound.push(((1 / withMiddleware[i]! - 1 / without[i]!) * 1e6) / count);
  }
  return median(perRound);
}

/** One measure of one contender (and one route), ordered by round then route so runs pair up. */
function series(
  results: Results,
  measure: (s: Sample) => number,
  contender: string,
  route?: string,
): number[] {
  const order = results.routes.map((r) => r.name);
  return results.samples
    .filter((s) => s.contender === contender && (route === undefined || s.route === route))
    .sort((a, b) => a.round - b.round || order.indexOf(a.route) - order.indexOf(b.route))
    .map(measure);
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function mark(met: boolean): string {
  return met ? 'yes' : '**no**';
}

function fixed(value: number, digits = 2): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '–';
}

function thousands(value: number): string {
  return Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '–';
}
