import { execFileSync, spawn } from 'node:child_process';
import {
  closeSync,
  constants,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { FdDestination, stdoutDefaults } from '../../src/logger/destination.js';
import { LogFormat, newLoggerWithFormat } from '../../src/logger/index.js';

// The stdout writer on a real pipe: a FIFO opened non-blocking at both ends stands for fd 1
// and the log collector reading it, so a full pipe answers EAGAIN as stdout's would.

interface Pipe {
  readonly writeFd: number;
  /** Everything the reader can take now. */
  read(): string;
  closeReader(): void;
}

const opened: Array<() => void> = [];
afterEach(() => {
  for (const close of opened.splice(0)) close();
});

function pipe(): Pipe & { path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'keelson-fifo-'));
  const path = join(dir, 'log');
  execFileSync('mkfifo', [path]);
  // The reader first: opening a FIFO's write end non-blocking fails while nobody reads it.
  let readFd: number | undefined = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const writeFd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
  const buf = Buffer.alloc(1 << 16);
  const closeReader = () => {
    if (readFd !== undefined) closeSync(readFd);
    readFd = undefined;
  };
  opened.push(() => {
    closeReader();
    closeSync(writeFd);
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    path,
    writeFd,
    closeReader,
    read() {
      let out = '';
      for (;;) {
        try {
          const n = readSync(readFd!, buf, 0, buf.length, null);
          if (n === 0) return out;
          out += buf.toString('utf8', 0, n);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'EAGAIN') return out;
          throw err;
        }
      }
    },
  };
}

const line = (i: number, size = 100) => `${String(i).padStart(8, '0')} ${'x'.repeat(size)}\n`;

describe('the stdout destination on a pipe', () => {
  it('holds short entries for flushIntervalMs, then writes them in one go', async () => {
    const p = pipe();
    const dest = new FdDestination(p.writeFd);
    dest.write(line(1));
    dest.write(line(2));
    expect(p.read()).toBe('');
    await sleep(stdoutDefaults.flushIntervalMs + 50);
    expect(p.read()).toBe(line(1) + line(2));
    // Idle: no timer keeps running, and a new entry is held again.
    dest.write(line(3));
    expect(p.read()).toBe('');
    dest.flushSync();
    expect(p.read()).toBe(line(3));
  });

  it('writes at once when minLength characters have collected', () => {
    const p = pipe();
    const dest = new FdDestination(p.writeFd);
    const big = 'y'.repeat(stdoutDefaults.minLength - 1);
    dest.write(big);
    expect(p.read()).toBe('');
    dest.write('z');
    expect(p.read()).toBe(`${big}z`);
  });

  it('keeps what a full pipe refuses and delivers every entry in order once it is read', async () => {
    const p = pipe();
    const dest = new FdDestination(p.writeFd);
    const sent: string[] = [];
    // About 200 KiB against a 64 KiB pipe: most of it is refused with EAGAIN at first.
    for (let i = 0; i < 2000; i++) {
      sent.push(line(i));
      dest.write(line(i));
    }
    let got = '';
    for (let round = 0; round < 100 && got.length < sent.join('').length; round++) {
      got += p.read();
      await sleep(stdoutDefaults.retryMs * 3);
    }
    expect(got).toBe(sent.join(''));
  });

  it('calls flush back once everything is written', async () => {
    const p = pipe();
    const dest = new FdDestination(p.writeFd);
    dest.write(line(1));
    await new Promise<void>((resolve, reject) =>
      dest.flush((error) => (error ? reject(error) : resolve())),
    );
    expect(p.read()).toBe(line(1));
  });

  it('gives a synchronous flush up at its deadline when nobody reads, and drops what follows', () => {
    const p = pipe();
    const dest = new FdDestination(p.writeFd);
    for (let i = 0; i < 2000; i++) dest.write(line(i));
    const started = Date.now();
    expect(() => dest.flushSync(50)).toThrow();
    expect(Date.now() - started).toBeLessThan(5_000);
    p.read();
    dest.write(line(1));
    dest.flushSync();
    expect(p.read()).toBe('');
  });

  it('stops collecting once the reader is gone, and still calls flush back', async () => {
    const p = pipe();
    const dest = new FdDestination(p.writeFd);
    p.closeReader();
    dest.write('y'.repeat(stdoutDefaults.minLength));
    dest.write(line(1));
    expect(() => dest.flushSync()).not.toThrow();
    const error = await new Promise<unknown>((resolve) => dest.flush((err) => resolve(err)));
    expect(error).toBeUndefined();
  });

  it('waits in a synchronous flush for a reader that keeps taking a little, past the stall limit', async () => {
    const p = pipe();
    const lines = Array.from({ length: 3000 }, (_, i) => line(i));
    const total = Buffer.byteLength(lines.join(''));
    // Another process reads, since flushSync blocks this one: 16 KiB every 100 ms, so the pipe
    // is found full many times in all, yet the reader never stops for the stall limit.
    // It copies to a file: its stdout would fill while flushSync blocks this process.
    const copy = `${p.path}.copy`;
    const reader = spawn(process.execPath, ['-e', SLOW_READER, p.path, String(total), copy], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((resolve) => reader.on('exit', resolve));
    await new Promise((resolve) => reader.stdout.once('data', resolve));
    const dest = new FdDestination(p.writeFd, { stallLimitMs: 500 });
    for (const l of lines) dest.write(l);
    const started = Date.now();
    expect(() => dest.flushSync()).not.toThrow();
    // Longer than the stall limit: progress started the count again.
    expect(Date.now() - started).toBeGreaterThan(500);
    await exited;
    expect(readFileSync(copy, 'utf8')).toBe(lines.join(''));
  });

  it('gives a synchronous flush up once the reader has taken nothing for the stall limit', () => {
    const p = pipe();
    const dest = new FdDestination(p.writeFd, { stallLimitMs: 300 });
    for (let i = 0; i < 2000; i++) dest.write(line(i));
    const started = Date.now();
    expect(() => dest.flushSync()).toThrow();
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(300);
    expect(took).toBeLessThan(5_000);
  });

  it('holds a write back while more than maxBacklog waits, for at most maxHoldMs', async () => {
    const p = pipe();
    const dest = new FdDestination(p.writeFd);
    const entry = line(0, 3_000);
    const total = Math.ceil((stdoutDefaults.maxBacklog * 1.5) / entry.length);
    const sent: string[] = [];
    const started = Date.now();
    for (let i = 0; i < total; i++) {
      sent.push(line(i, 3_000));
      dest.write(line(i, 3_000));
    }
    const held = Date.now() - started;
    // Nobody reads: one write waited maxHoldMs for the reader, then the rest went on.
    expect(held).toBeGreaterThanOrEqual(stdoutDefaults.maxHoldMs - 10);
    expect(held).toBeLessThan(stdoutDefaults.maxHoldMs * 3);
    expect(dest.backlog).toBeGreaterThan(stdoutDefaults.maxBacklog);
    let got = '';
    for (let round = 0; round < 2_000 && got.length < sent.join('').length; round++) {
      got += p.read();
      await sleep(2);
    }
    expect(got).toBe(sent.join(''));
  });

  it('gives a flush through a tee up at its deadline, not at the stall limit', () => {
    const p = pipe();
    const dest = new FdDestination(p.writeFd, { stallLimitMs: 5_000 });
    const logger = newLoggerWithFormat(true, LogFormat.JSON)
      .withWriter(dest)
      .tee(() => {});
    for (let i = 0; i < 2000; i++) logger.info(line(i));
    const started = Date.now();
    expect(() => logger.flushSync(100)).toThrow(/deadline/);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

// Opens the FIFO, says ready, then copies it to a file 16 KiB at a time, 100 ms apart.
const SLOW_READER = `
const fs = require('node:fs');
const [path, total, copy] = process.argv.slice(1);
const fd = fs.openSync(path, 'r');
const out = fs.openSync(copy, 'w');
process.stdout.write('ready\\n');
const buf = Buffer.alloc(16384);
let left = Number(total);
const pause = new Int32Array(new SharedArrayBuffer(4));
while (left > 0) {
  Atomics.wait(pause, 0, 0, 100);
  const n = fs.readSync(fd, buf, 0, Math.min(buf.length, left), null);
  if (n === 0) break;
  fs.writeSync(out, buf.subarray(0, n));
  left -= n;
}
`;
