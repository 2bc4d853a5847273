/**
 * Tests that need a program of the system (promtool, chromium, redis-server): on a machine
 * without it they skip with a visible reason naming the Debian package, and in CI (`CI` set)
 * they fail, since `.ci/run` installs every such package.
 * @module
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Whether a system tool is here, and if not, why its tests skip. */
export interface SystemTool {
  /** True when the command (or absolute path) exists. */
  readonly available: boolean;
  /** `<command> not found: apt-get install <package>` when absent. */
  readonly reason: string;
}

/**
 * Looks for `command` (a name on PATH or an absolute path). Absent: throws when `CI` is set,
 * else warns once on stderr and reports it unavailable, so the caller can `describe.skipIf`.
 * @example const redis = systemTool('redis-server', 'redis-server');
 * describe.skipIf(!redis.available)('with a real Redis', () => { … });
 */
export function systemTool(command: string, debianPackage: string): SystemTool {
  const available = command.startsWith('/')
    ? existsSync(command)
    : spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
  const reason = available ? '' : `${command} not found: apt-get install ${debianPackage}`;
  if (!available) {
    if (process.env.CI) throw new Error(`${reason} (.ci/run installs it; CI must not skip)`);
    process.stderr.write(`skipping the tests that need ${command}: ${reason}\n`);
  }
  return { available, reason };
}
