import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { finished, linesOf, runChild, startChild } from './run-child.js';

// These run a real process writing to a real pipe: buffering, flushing on exit and exiting are
// only observable from the outside.
const TEXT_LINE = /^\[(INFO|ERROR)\] \d{4}-\d\d-\d\d \d\d:\d\d:\d\d (.*)$/;

function messagesOf(stdout: string): string[] {
  return linesOf(stdout).map((line) => {
    const match = TEXT_LINE.exec(line);
    if (!match) throw new Error(`not a text entry: ${JSON.stringify(line)}`);
    return match[2] ?? '';
  });
}

// A child left behind by a failing test is stopped when the test ends.
function started(args: string[], stdout?: number, env?: NodeJS.ProcessEnv): ChildProcess {
  const child = startChild(args, stdout, env);
  onTestFinished(() => {
    if (child.exitCode === null) child.kill();
  });
  return child;
}

function numberedLines(from: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `line ${from + i} of the run`);
}

describe('a process that logs to its stdout', () => {
  it('exits with code 1 after error() and the entry is on stdout', async () => {
    const result = await runChild('error');

    expect(result.code).toBe(1);
    expect(messagesOf(result.stdout)).toEqual(['starting', 'bad config: PORT is not a number']);
    expect(linesOf(result.stdout)[1]).toMatch(/^\[ERROR\] /);
  });

  it('writes the error() entry as JSON in the JSON format', async () => {
    const result = await runChild('error', 'json');

    expect(result.code).toBe(1);
    const entries = linesOf(result.stdout).map((line) => JSON.parse(line));
    expect(entries.map((entry) => [entry.level, entry.message])).toEqual([
      ['info', 'starting'],
      ['error', 'bad config: PORT is not a number'],
    ]);
  });

  it('writes a module fallback logger in the format of the process logger: JSON here', async () => {
    const result = await runChild('i18n-missing-key', 'json');
    expect(result.code).toBe(0);
    const entries = linesOf(result.stdout).map((line) => JSON.parse(line));
    expect(entries.map((entry) => [entry.level, entry.message])).toEqual([
      ['info', 'starting'],
      ['warn', 'i18n: missing key "no.such.key" (asked for en); answering with the key'],
    ]);
  });

  it('delivers 10,000 buffered lines and then the error() entry, in order', async () => {
    const result = await runChild('lines-then-error');

    expect(result.code).toBe(1);
    expect(messagesOf(result.stdout)).toEqual([
      ...numberedLines(0, 10_000),
      'fatal after 10000 lines',
    ]);
  });

  it('delivers every line written just before an uncaught exception', async () => {
    const result = await runChild('lines-then-throw');

    expect(result.code).toBe(1);
    expect(result.stderr).toContain('crash after 10000 lines');
    expect(messagesOf(result.stdout)).toEqual(numberedLines(0, 10_000));
  });

  it('keeps logging without blocking while nobody reads its stdout, and loses nothing', async () => {
    const child = started(['slow-sink']);
    const stderr: string[] = [];
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
    // Nothing reads stdout until the child has logged 40,000 lines (about 1.4 MB, far more than
    // a pipe holds): if a write blocked on the full pipe, the child would never get this far.
    while (!stderr.join('').includes('logged 40000')) await once(child.stderr!, 'data');
    const result = await finished(child);

    expect(result.code).toBe(0);
    expect(messagesOf(result.stdout)).toEqual(numberedLines(0, 40_000));
  });

  it('delivers what a full pipe held back once the reader catches up, without exiting', async () => {
    const child = started(['slow-sink-then-wait']);
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    while (!stderr.includes('logged 40000')) await once(child.stderr!, 'data');
    let stdout = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    // No new entry is logged from here on: only the retry timer can deliver the rest.
    while (linesOf(stdout).length < 40_000) await once(child.stdout!, 'data');

    expect(child.exitCode).toBeNull();
    expect(messagesOf(stdout)).toEqual(numberedLines(0, 40_000));
    child.stdin?.end();
    expect((await finished(child)).code).toBe(0);
  });

  it('flushes a buffered line within the flush interval while the process keeps running', async () => {
    const child = started(['one-line-then-wait']);
    child.stdout?.setEncoding('utf8');
    const [chunk] = await once(child.stdout!, 'data');

    expect(messagesOf(String(chunk))).toEqual(['waiting']);
    expect(child.exitCode).toBeNull();
    child.stdin?.end();
    expect((await finished(child)).code).toBe(0);
  });

  it('flushSync() and flush() write what is buffered before they return', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keelson-logger-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'stdout.log');
    const fd = openSync(file, 'w');
    const child = started(['flush-to-file'], fd, { KEELSON_LOG_FILE: file });
    closeSync(fd);
    const result = await finished(child);

    expect(result.code).toBe(0);
    const report = JSON.parse(result.stderr) as Record<string, string>;
    expect(report.beforeFlushSync).toBe('');
    expect(messagesOf(report.afterFlushSync ?? '')).toEqual(['one']);
    expect(report.beforeFlush).toBe(report.afterFlushSync);
    expect(messagesOf(report.afterFlush ?? '')).toEqual(['one', 'two']);
  });

  it('keeps running when the reader of its stdout goes away', async () => {
    const child = started(['reader-gone']);
    child.stdout?.destroy();
    const result = await finished(child);

    expect(result.stderr).toBe('still running');
    expect(result.code).toBe(0);
  });

  it('does not exit after a request entry with status 500', async () => {
    const result = await runChild('request-500');

    expect(result.code).toBe(0);
    expect(linesOf(result.stdout)).toEqual([
      expect.stringMatching(/^\[ERROR\] \S+ \S+ GET \/boom 500 3\.3ms - Error: x$/),
      expect.stringMatching(/^\[INFO\] \S+ \S+ still running$/),
    ]);
  });
});
