/**
 * Starts a service fixture in a child process and follows its JSON log on stdout: the shared
 * helper of the lifecycle and reliability tests.
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';

/** A running service and what it has logged so far. */
export interface ServiceProcess {
  child: ChildProcess;
  /** Every parsed stdout line, in order. */
  entries: Record<string, unknown>[];
  /** Lines of stdout that were not JSON (should stay empty). */
  garbled: string[];
  /** The port, once the service logged that it listens. */
  port: Promise<number>;
  /** Resolves with the first entry whose message matches, or rejects when the process exits. */
  waitFor(pattern: RegExp): Promise<Record<string, unknown>>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  /** Everything written to stderr. */
  stderr(): string;
}

const running = new Set<ChildProcess>();

/** Kills every process still running (for afterEach). */
export function killAll(): void {
  for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
  running.clear();
}

/** Starts `fixture` (a TypeScript file, run through tsx) with `env` added to the environment. */
export function startLogProcess(fixture: string, env: Record<string, string> = {}): ServiceProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const entries: Record<string, unknown>[] = [];
  const garbled: string[] = [];
  const waiters: { pattern: RegExp; resolve: (e: Record<string, unknown>) => void }[] = [];
  let buffer = '';
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += String(d);
  });
  child.stdout?.on('data', (d) => {
    buffer += String(d);
    let nl = buffer.indexOf('\n');
    while (nl !== -1) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      nl = buffer.indexOf('\n');
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line) as Record<string, unknown>;
      } catch {
        garbled.push(line);
        continue;
      }
      entries.push(entry);
      for (const w of [...waiters]) {
        if (w.pattern.test(String(entry.message ?? ''))) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(entry);
        }
      }
    }
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>(
    (resolve) =>
      child.on('exit', (code, signal) => {
        running.delete(child);
        resolve({ code, signal, at: Date.now() });
      }),
  );
  // 'exit' can come before the last stdout data; 'close' comes after all of it.
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const waitFor = (pattern: RegExp) => {
    const found = entries.find((e) => pattern.test(String(e.message ?? '')));
    if (found) return Promise.resolve(found);
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      waiters.push({ pattern, resolve });
      void closed.then(() => {
        const late = entries.find((e) => pattern.test(String(e.message ?? '')));
        if (late) resolve(late);
        else reject(new Error(`exited before logging ${pattern}; stderr: ${stderr}`));
      });
    });
  };
  const port = waitFor(/listening on/).then((e) => Number(/:(\d+)/.exec(String(e.message))![1]));
  port.catch(() => {});
  return {
    child,
    entries,
    garbled,
    port,
    waitFor,
    exit: closed.then(() => exit),
    stderr: () => stderr,
  };
}
