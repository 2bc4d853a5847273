/**
 * Runs the keelson command in-process for the CLI tests, capturing what it prints.
 * @module
 */
import { runCli } from '../../src/cli/main.js';
import type { CliIo } from '../../src/cli/usage.js';

/** The exit code and the printed text of one `keelson …` run in `cwd`. */
export async function runCliIn(argv: string[], cwd: string) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { cwd, out: (t) => out.push(t), err: (t) => err.push(t) };
  const code = await runCli(argv, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}
