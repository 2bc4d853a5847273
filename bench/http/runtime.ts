// Which program runs a contender: the Node running the bench, or Bun, found the way CI installs it.
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The JavaScript runtime a contender's server file runs on. */
export type Runtime = 'node' | 'bun';

/** The Bun version CI installs (`.ci/run`); what the Bun section of bench/README.md used. */
export const BUN_VERSION = '1.4.5';

/** The one line the bench fails with when a Bun contender is asked for and no Bun is found. */
export const NO_BUN =
  `no Bun found (BUN, \`bun\` on the PATH, ${ciBunPath()}): ` +
  `npm install --prefix /tmp/bun @oven/bun-linux-x64@${BUN_VERSION}, then ` +
  'BUN=/tmp/bun/node_modules/@oven/bun-linux-x64/bin/bun npm run bench -- ...';

/** Where `.ci/run` installs Bun: `$TMPDIR/keelson-ci-bun` (baseline build without AVX2). */
export function ciBunPath(env: NodeJS.ProcessEnv = process.env): string {
  const dir = join(env.TMPDIR || tmpdir(), 'keelson-ci-bun');
  return join(dir, 'node_modules', '@oven', 'bun-linux-x64', 'bin', 'bun');
}

/**
 * The path of a Bun that answers `--version`: the `BUN` variable, else `bun` on the PATH, else
 * CI's copy (plain or baseline build); undefined when none does. A `BUN` that does not run is
 * an error, not a reason to look elsewhere.
 */
export function findBun(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.BUN) {
    if (versionOf(env.BUN) === undefined) throw new Error(`BUN=${env.BUN} does not run`);
    return env.BUN;
  }
  const ci = [ciBunPath(env), ciBunPath({ TMPDIR: '/tmp' })];
  const builds = ci.flatMap((path) => [
    path,
    path.replaceAll('bun-linux-x64', 'bun-linux-x64-baseline'),
  ]);
  return ['bun', ...new Set(builds)].find((path) => versionOf(path) !== undefined);
}

/** `bun --version` of `path`, or undefined when it does not run. */
export function versionOf(path: string): string | undefined {
  const result = spawnSync(path, ['--version'], { encoding: 'utf8' });
  return result.error || result.status !== 0 ? undefined : result.stdout.trim();
}

let bun: string | undefined;

/** The command that runs a server file on `runtime`; throws NO_BUN when Bun is wanted and absent. */
export function runtimeCommand(runtime: Runtime = 'node'): string {
  if (runtime === 'node') return process.execPath;
  bun ??= findBun();
  if (bun === undefined) throw new Error(NO_BUN);
  return bun;
}
