/**
 * A generated API of N routes and a client file of typed calls against it, type-checked by a
 * whole `tsc` process: the scale test of the typed client and `bench/client-types.ts` use it.
 * @module
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

// 40 % POST with a body, 40 % GET, the rest PUT, PATCH and (every 25th) DELETE.
const METHODS = ['post', 'get', 'post', 'get', 'put', 'post', 'get', 'post', 'get', 'patch'];

function methodOf(i: number): string {
  return i % 25 === 24 ? 'del' : (METHODS[i % METHODS.length] as string);
}

/** The API module of `n` routes, each with schemas of its own; `src` is the path to src/. */
export function apiSource(n: number, src: string): string {
  const lines = [
    "import { z } from 'zod';",
    `import type { RoutesOf } from '${src}/client/index.js';`,
    `import { del, get, patch, post, put } from '${src}/index.js';`,
  ];
  for (let i = 0; i < n; i++) {
    const m = methodOf(i);
    const body = m === 'post' || m === 'put' || m === 'patch';
    lines.push(
      `const r${i} = ${m}('/r${i}/:id', { params: z.object({ id: z.coerce.number() }),` +
        (body ? ` body: z.object({ name${i}: z.string(), n: z.number().optional() }),` : '') +
        ` responses: { 200: z.object({ id: z.number(), v${i}: z.string() }) } },` +
        ` (c) => ({ id: c.params.id, v${i}: 'x' }));`,
    );
  }
  const all = Array.from({ length: n }, (_, i) => `typeof r${i}`).join(', ');
  lines.push(`export type Api = RoutesOf<[${all}]>;`);
  return `${lines.join('\n')}\n`;
}

/** A client module of `calls` calls (half POST with a body, half GET) spread over the API. */
export function clientSource(n: number, calls: number, src: string): string {
  const lines = [
    `import { createClient } from '${src}/client/index.js';`,
    "import type { Api } from './api.js';",
    "const api = createClient<Api>({ baseUrl: 'http://localhost' });",
    'export async function calls() {',
  ];
  const ids = Array.from({ length: n }, (_, i) => i);
  const posts = ids.filter((i) => methodOf(i) === 'post');
  const gets = ids.filter((i) => methodOf(i) === 'get');
  for (let k = 0; k < calls / 2; k++) {
    const p = posts[Math.floor((k * posts.length) / (calls / 2))];
    const g = gets[Math.floor((k * gets.length) / (calls / 2))];
    lines.push(
      `  const p${k} = await api.post('/r${p}/:id', { params: { id: ${k} }, body: { name${p}: 'a' } });`,
      `  if (p${k}.data) p${k}.data.v${p}.toUpperCase();`,
      `  const g${k} = await api.get('/r${g}/:id', { params: { id: ${k} } });`,
      `  if (g${k}.data) g${k}.data.v${g}.toUpperCase();`,
    );
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

const TIME = '/usr/bin/time';

/** How many routes of the API of `n` routes answer POST. */
export function postCount(n: number): number {
  return Array.from({ length: n }, (_, i) => methodOf(i)).filter((m) => m === 'post').length;
}

/** What one `tsc --noEmit` of the generated project gave. */
export interface TscRun {
  /** Wall-clock seconds of the whole process. */
  seconds: number;
  /** CPU seconds (user + system) of the process, from /usr/bin/time; NaN without it. */
  cpuSeconds: number;
  /** Type instantiations, from `--extendedDiagnostics`: the same on every machine. */
  instantiations: number;
  /** The error codes reported, e.g. `TS2590`; empty when it compiles. */
  errors: string[];
  /** What tsc printed. */
  output: string;
}

/** Writes the project of `n` routes and `calls` calls under `root/.tmp/`, checks it, removes it. */
export function checkScaleProject(n: number, calls: number, root = ROOT): TscRun {
  const dir = join(root, '.tmp', `client-scale-${process.pid}-${n}`);
  mkdirSync(dir, { recursive: true });
  try {
    const src = relative(dir, join(root, 'src'));
    writeFileSync(join(dir, 'api.ts'), apiSource(n, src));
    writeFileSync(join(dir, 'client.ts'), clientSource(n, calls, src));
    const base = relative(dir, join(root, 'tsconfig.json'));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ extends: base, include: ['api.ts', 'client.ts'] }),
    );
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const args = [tsc, '-p', dir, '--extendedDiagnostics', '--pretty', 'false'];
    // CPU time says what the check costs on a machine others share; wall time, what one waits.
    const timed = existsSync(TIME);
    const [command, argv] = timed
      ? [TIME, ['-f', 'CPU %U %S', process.execPath, ...args]]
      : [process.execPath, args];
    const start = process.hrtime.bigint();
    const run = spawnSync(command, argv, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const output = `${run.stdout}${run.stderr}`;
    const cpu = /CPU ([\d.]+) ([\d.]+)/.exec(run.stderr);
    const cpuSeconds = cpu ? Number(cpu[1]) + Number(cpu[2]) : Number.NaN;
    const instantiations = Number(/Instantiations:\s+(\d+)/.exec(output)?.[1] ?? Number.NaN);
    const errors = [...new Set(output.match(/error TS\d+/g))].map((e) => e.slice(6));
    return { seconds, cpuSeconds, instantiations, errors, output };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
