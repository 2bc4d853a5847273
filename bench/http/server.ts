// Starts a contender in its own process, pinned to a core, and measures the time from spawn to
// its first 200; reads its resident memory; stops it.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { ask } from './client.js';
import type { Contender } from './contenders.js';
import { runtimeCommand } from './runtime.js';

/** How a server is started. */
export interface StartOptions {
  /** The file the server writes its request log to. */
  readonly logFile: string;
  /** The core to pin the server to with taskset, or undefined to leave it unpinned. */
  readonly cpu: number | undefined;
  /** How long to wait for the first 200. @default 30_000 */
  readonly timeoutMs?: number;
  /** Flags for the runtime, before the server file (`--cpu-prof`). */
  readonly runtimeArgs?: readonly string[];
}

/** A contender that answered its first request. */
export interface RunningServer {
  readonly port: number;
  /** Milliseconds from spawn to the first 200 of `GET /hello`. */
  readonly startupMs: number;
  /** How many requests the startup probe got an answer to (each is a request-log line). */
  readonly probesAnswered: number;
  /** Resident memory in bytes now (VmRSS). */
  rss(): number;
  /** CPU time the process has used so far (user + system, all its threads), in seconds. */
  cpuSeconds(): number;
  /** Sends SIGTERM and resolves when the process has exited (SIGKILL after 5 s). */
  stop(): Promise<void>;
}

/** A free TCP port on the loopback interface. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  probe.close();
  await once(probe, 'close');
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Spawns `contender` and resolves once it has answered `GET /hello` with 200. */
export async function startServer(
  contender: Contender,
  { logFile, cpu, timeoutMs = 30_000, runtimeArgs = [] }: StartOptions,
): Promise<RunningServer> {
  const port = await freePort();
  const run = [runtimeCommand(contender.runtime), ...runtimeArgs, contender.file];
  const [command, ...args] = cpu === undefined ? run : ['taskset', '-c', String(cpu), ...run];
  let stderr = '';
  const start = performance.now();
  const out = contender.logsToStdout ? openSync(logFile, 'a') : 'ignore';
  const child = spawn(command!, args, {
    env: { ...process.env, ...contender.env, PORT: String(port), LOG_FILE: logFile, NO_COLOR: '1' },
    stdio: ['ignore', out, 'pipe'],
  });
  if (typeof out === 'number') closeSync(out);
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = once(child, 'exit');
  let probesAnswered = 0;
  try {
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`${contender.name} exited before answering:\n${stderr}`);
      }
      if (performance.now() - start > timeoutMs) {
        throw new Error(`${contender.name} did not answer within ${timeoutMs} ms:\n${stderr}`);
      }
      const answer = await ask(port, { path: '/hello' }).catch(() => undefined);
      if (answer) probesAnswered++;
      if (answer?.status === 200) break;
      // The port is not bound yet: try again shortly; this sets the resolution of startupMs.
      await delay(2);
    }
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  const startupMs = performance.now() - start;
  return {
    port,
    startupMs,
    probesAnswered,
    rss: () => rssOf(child),
    cpuSeconds: () => cpuOf(child),
    stop: () => stop(child, exited),
  };
}

// /proc/<pid>/stat counts in clock ticks: 100 a second on Linux.
const TICKS_PER_SECOND = 100;

/** utime + stime of a live process, from /proc/<pid>/stat, in seconds. */
function cpuOf(child: ChildProcess): number {
  const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** VmRSS of a live process, in bytes, from /proc/<pid>/status. */
function rssOf(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1];
  if (kb === undefined) throw new Error(`no VmRSS in /proc/${child.pid}/status`);
  return Number(kb) * 1024;
}

async function stop(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}
