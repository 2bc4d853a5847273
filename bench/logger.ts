// Lines per second of keelson/logger (text and JSON) against pino, each writing 1,000,000
// `info('user %s did %d things', 'alice', 42)` lines to a file through an asynchronous
// sonic-boom with the same minLength. Every run is a fresh process; the contenders take turns
// round by round so that a noisy moment on the machine hits all of them alike. Two more rows
// show keelson's default destination (buffered stdout) with stdout redirected to a file.
//
//   npx tsx bench/logger.ts            5 rounds, then a Markdown table on stdout
//   npx tsx bench/logger.ts <name>     one run of one contender; its result on stderr as JSON
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdtempSync, openSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import sonicBoom from 'sonic-boom';
import { stdoutDefaults } from '../src/logger/destination.js';
import { LogFormat, type Logger, newLoggerWithFormat } from '../src/logger/index.js';

const { SonicBoom } = sonicBoom;
const LINES = 1_000_000;
const ROUNDS = 5;
const MIN_LENGTH = stdoutDefaults.minLength;
const CONTENDERS = {
  'keelson-text': 'keelson text, withWriter(SonicBoom) to a file',
  'keelson-json': 'keelson JSON, withWriter(SonicBoom) to a file',
  pino: 'pino, pino.destination() to a file',
  'keelson-text-stdout': 'keelson text, default stdout redirected to a file',
  'keelson-json-stdout': 'keelson JSON, default stdout redirected to a file',
} as const;
type Contender = keyof typeof CONTENDERS;
const NAMES = Object.keys(CONTENDERS) as Contender[];

interface Run {
  linesPerSecond: number;
}

interface Sink {
  info: (format: string, ...args: unknown[]) => void;
  flush: () => Promise<void>;
}

/** The logger under test, writing to `file`, or to stdout for the stdout contenders. */
async function open(contender: Contender, file: string): Promise<Sink> {
  const format = contender.startsWith('keelson-text') ? LogFormat.Text : LogFormat.JSON;
  const keelson = (logger: Logger): Sink => ({
    info: logger.info.bind(logger),
    flush: () => logger.flush(),
  });
  if (contender.endsWith('-stdout')) return keelson(newLoggerWithFormat(true, format));
  if (contender === 'pino') {
    const destination = pino.destination({ dest: file, minLength: MIN_LENGTH, sync: false });
    await once(destination, 'ready');
    const logger = pino(destination);
    return {
      info: logger.info.bind(logger),
      flush: () => new Promise((resolve) => destination.flush(() => resolve())),
    };
  }
  const destination = new SonicBoom({ dest: file, minLength: MIN_LENGTH, sync: false });
  await once(destination, 'ready');
  return keelson(newLoggerWithFormat(true, format).withWriter(destination));
}

/** Writes LINES lines and measures until they have all been written out. */
async function run(contender: Contender, file: string): Promise<Run> {
  const sink = await open(contender, file);
  const start = performance.now();
  for (let i = 0; i < LINES; i++) sink.info('user %s did %d things', 'alice', 42);
  await sink.flush();
  return { linesPerSecond: LINES / ((performance.now() - start) / 1000) };
}

interface Result extends Run {
  bytes: number;
}

function runInFreshProcess(contender: Contender): Result {
  const dir = mkdtempSync(join(tmpdir(), 'keelson-bench-'));
  const file = join(dir, 'log');
  const fd = openSync(file, 'w');
  try {
    const self = fileURLToPath(import.meta.url);
    const child = spawnSync(process.execPath, ['--import', 'tsx', self, contender, file], {
      encoding: 'utf8',
      stdio: ['ignore', fd, 'pipe'],
    });
    if (child.status !== 0) throw new Error(`${contender} failed:\n${child.stderr}`);
    const lastLine = child.stderr.trimEnd().split('\n').at(-1) ?? '';
    return { ...(JSON.parse(lastLine) as Run), bytes: statSync(file).size };
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? Number.NaN;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? Number.NaN) + upper) / 2;
}

// For a package name, its installed version; for a path, the version of that package.json.
function versionOf(packageJson: string): string {
  const require = createRequire(import.meta.url);
  return (require(packageJson) as { version: string }).version;
}

function main(): void {
  const results = new Map<Contender, Result[]>(NAMES.map((name) => [name, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const name of NAMES) {
      const result = runInFreshProcess(name);
      results.get(name)?.push(result);
      const rate = Math.round(result.linesPerSecond).toLocaleString('en-US');
      process.stderr.write(`round ${round} ${name}: ${rate} lines/s\n`);
    }
  }
  const rates = (name: Contender) => (results.get(name) ?? []).map((r) => r.linesPerSecond);
  const pinoRates = rates('pino');
  const rows = NAMES.map((name) => {
    const ratio = median(rates(name).map((rate, i) => rate / (pinoRates[i] ?? Number.NaN)));
    const bytesPerLine = (results.get(name)?.[0]?.bytes ?? 0) / LINES;
    const linesPerSecond = Math.round(median(rates(name))).toLocaleString('en-US');
    return `| ${CONTENDERS[name]} | ${linesPerSecond} | ${ratio.toFixed(2)} | ${bytesPerLine.toFixed(0)} |`;
  });
  const cpu = cpus();
  console.log(
    [
      `- keelson ${versionOf('../package.json')}, pino ${versionOf('pino/package.json')}, ` +
        `sonic-boom ${versionOf('sonic-boom/package.json')}, Node ${process.versions.node}`,
      `- ${cpu.length} cores (${cpu[0]?.model ?? 'unknown CPU'}), ${process.platform} ${process.arch}`,
      `- \`npx tsx bench/logger.ts\`: ${ROUNDS} rounds of ${LINES.toLocaleString('en-US')} lines, ` +
        'each run in a fresh process, contenders interleaved; ratio = median of the per-round ratios',
      '',
      '| contender | median lines/s | ratio to pino | bytes/line |',
      '|---|---:|---:|---:|',
      ...rows,
    ].join('\n'),
  );
}

const [contender, file] = process.argv.slice(2);
if (contender === undefined) main();
else if (contender in CONTENDERS && file !== undefined) {
  process.stderr.write(`${JSON.stringify(await run(contender as Contender, file))}\n`);
} else {
  throw new Error(`usage: bench/logger.ts [${NAMES.join('|')} <file>]`);
}
