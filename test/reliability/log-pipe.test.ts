import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync } from 'node:fs';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { addFigures } from './figures.js';
import { runLoad } from './load.js';

// The log on a real pipe (a FIFO, as `node service | collector` has), read here as fast as it
// comes: how fast keelson/logger's stdout writer fills it, next to pino on the same pipe, and
// what reaches it of a service logging 3 KB per request when it is stopped under load.

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}.ts`, import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'keelson-log-pipe-'));
let fifos = 0;
const children = new Set<ReturnType<typeof spawn>>();
afterEach(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  children.clear();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts `name` with its stdout on a FIFO that this process reads in full. */
function onPipe(name: string, args: string[], env: Record<string, string> = {}) {
  const path = join(dir, `log-${++fifos}`);
  execFileSync('mkfifo', [path]);
  const readFd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  // Blocking at the writer's end, as a shell pipe is: pino keeps it so, keelson makes it
  // non-blocking by opening process.stdout.
  const writeFd = openSync(path, constants.O_WRONLY);
  const child = spawn(process.execPath, ['--import', 'tsx', fixture(name), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', writeFd, 'pipe'],
  });
  children.add(child);
  closeSync(writeFd);
  const started = performance.now();
  let bytes = 0;
  let text = '';
  let lastByteAt = started;
  const reader = new net.Socket({ fd: readFd, readable: true, writable: false });
  reader.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    text += chunk.toString('latin1');
    lastByteAt = performance.now();
  });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += String(d);
  });
  const ended = new Promise<void>((resolve) => reader.on('end', resolve));
  const exit = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.on('exit', (code) => resolve({ code, at: Date.now() })),
  );
  return {
    child,
    exit,
    stderr: () => stderr,
    /** Resolves once stdout is closed, with what came and how fast. */
    async output() {
      await ended;
      const seconds = (lastByteAt - started) / 1000;
      return { bytes, text, mbPerSecond: bytes / 1e6 / seconds };
    },
    /** Resolves with the port once the service says it listens. */
    async port() {
      while (!/listening on http:\/\/127\.0\.0\.1:(\d+)/.test(text)) {
        if (child.exitCode !== null) throw new Error(`exited early: ${stderr}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(text)![1]);
    },
  };
}

describe('the log on a pipe', () => {
  it('fills a pipe at least half as fast as pino does on the same pipe (3 KB entries)', async ({
    task,
  }) => {
    const count = '20000'; // 60 MB
    const keelson = onPipe('log-pipe', ['keelson', count]);
    const ours = await keelson.output();
    expect((await keelson.exit).code).toBe(0);
    const pino = onPipe('log-pipe', ['pino', count]);
    const theirs = await pino.output();
    expect((await pino.exit).code).toBe(0);
    addFigures(task.meta, {
      logPipeMBps: Math.round(ours.mbPerSecond),
      pinoPipeMBps: Math.round(theirs.mbPerSecond),
    });
    expect(ours.text.split('\n').length - 1).toBe(20_000);
    expect(ours.mbPerSecond).toBeGreaterThan(theirs.mbPerSecond / 2);
  });

  it('loses no entry of a service logging 3 KB per request, stopped by SIGTERM after 5 s of load, and exits 0', async ({
    task,
  }) => {
    const service = onPipe('log-service', [], { SHUTDOWN_TIMEOUT_MS: '5000' });
    const port = await service.port();
    const load = runLoad({ port, connections: 50, maxRequests: 200_000, maxMs: 5_000, tag: 'l' });
    const sent = await load.done;
    service.child.kill('SIGTERM');
    const { code } = await service.exit;
    const { text } = await service.output();
    const answered = sent.filter((s) => s.outcome === 'complete').map((s) => s.id);
    const logged = new Set(
      [...text.matchAll(/"message":"work (l-\d+) done: d{3000}"/g)].map((m) => m[1]),
    );
    const lost = answered.filter((id) => !logged.has(id)).length;
    addFigures(task.meta, { requestsSent: sent.length, logLinesLost: lost });
    expect(answered.length).toBeGreaterThan(100);
    expect(lost).toBe(0);
    expect(code, service.stderr()).toBe(0);
  });
});
