import { isMainThread } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LogFormat, Logger } from '../../src/logger/index.js';
import { collector } from './collector.js';

// 2026-11-22 14:03:07.123 UTC is 19:33:07 in Kolkata (UTC+05:30, no daylight saving).
const NOW = Date.UTC(2026, 10, 22, 14, 3, 7, 123);
const TEXT_ENTRY = /^\[(DEBUG|INFO|WARN|ERROR)\] (\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}) (.*)\n$/;

function textLogger(isProduction = false) {
  const writer = collector();
  return { writer, log: new Logger({ isProduction, format: LogFormat.Text, writer }) };
}

describe('the text format', () => {
  const zone = process.env.TZ;
  beforeEach(() => {
    process.env.TZ = 'Asia/Kolkata';
    vi.useFakeTimers({ now: NOW });
  });
  afterEach(() => {
    vi.useRealTimers();
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it('writes [LEVEL] date time message on one line', () => {
    const { writer, log } = textLogger();
    log.info('user %s did %d things', 'alice', 42);

    expect(writer.chunks).toEqual(['[INFO] 2026-11-22 19:33:07 user alice did 42 things\n']);
  });

  it('writes each level in upper case', () => {
    const { writer, log } = textLogger();
    log.debug('d');
    log.info('i');
    log.warn('w');

    expect(writer.chunks.map((chunk) => TEXT_ENTRY.exec(chunk)?.slice(1))).toEqual([
      ['DEBUG', '2026-11-22 19:33:07', 'd'],
      ['INFO', '2026-11-22 19:33:07', 'i'],
      ['WARN', '2026-11-22 19:33:07', 'w'],
    ]);
  });

  // Node applies a change of process.env.TZ only on the main thread (Stryker runs the tests in
  // worker threads, started in Kolkata by vitest.mutation.config.ts).
  it.skipIf(!isMainThread)('prints the local time of the process time zone, not UTC', () => {
    const { writer, log } = textLogger();
    log.info('in Kolkata');
    process.env.TZ = 'America/New_York';
    vi.setSystemTime(NOW + 1000);
    log.info('in New York');

    expect(writer.chunks).toEqual([
      '[INFO] 2026-11-22 19:33:07 in Kolkata\n',
      '[INFO] 2026-11-22 09:03:08 in New York\n',
    ]);
  });

  it('moves to the next second exactly when the clock does', () => {
    const { writer, log } = textLogger();
    vi.setSystemTime(Date.UTC(2026, 10, 22, 14, 3, 7, 999));
    log.info('a');
    vi.setSystemTime(Date.UTC(2026, 10, 22, 14, 3, 8, 0));
    log.info('b');
    vi.setSystemTime(Date.UTC(2027, 0, 1, 0, 0, 0, 0));
    log.info('c');

    expect(writer.chunks.map((chunk) => TEXT_ENTRY.exec(chunk)?.[2])).toEqual([
      '2026-11-22 19:33:07',
      '2026-11-22 19:33:08',
      '2027-01-01 05:30:00',
    ]);
  });

  it.each([
    ['a newline', 'a\nb', 'a\\nb'],
    ['a carriage return', 'a\rb', 'a\\rb'],
    ['a tab', 'a\tb', 'a\\tb'],
    ['an escape sequence', 'a\u001b[31mb', 'a\\u001b[31mb'],
    ['a NUL', 'a\u0000b', 'a\\u0000b'],
    ['DEL and a C1 control', 'a\u007f\u0085b', 'a\\u007f\\u0085b'],
    ['line and paragraph separators', 'a\u2028\u2029b', 'a\\u2028\\u2029b'],
  ])('escapes %s in a message in production', (_name, message, escaped) => {
    const { writer, log } = textLogger(true);
    log.info(message);

    expect(writer.chunks).toEqual([`[INFO] 2026-11-22 19:33:07 ${escaped}\n`]);
  });

  it('keeps a message that tries to forge a second entry on one line in production', () => {
    const { writer, log } = textLogger(true);
    log.warn('login failed for %s', 'bob\n[ERROR] 2026-11-22 19:33:07 database wiped');

    expect(writer.chunks).toHaveLength(1);
    expect(writer.chunks[0]?.split('\n')).toHaveLength(2);
    expect(writer.chunks[0]).toMatch(TEXT_ENTRY);
    expect(writer.chunks[0]).toContain('bob\\n[ERROR]');
  });

  it('keeps a multi-line stack on one line in production', () => {
    const { writer, log } = textLogger(true);
    log.warn(new Error('boom'));

    expect(writer.chunks[0]).toMatch(/^\[WARN\] 2026-11-22 19:33:07 Error: boom\\n {4}at .*\n$/);
    expect(writer.chunks[0]?.split('\n')).toHaveLength(2);
  });

  it('writes a request entry as METHOD path status duration', () => {
    const { writer, log } = textLogger();
    log.request({ method: 'GET', path: '/users/42', status: 200, durationMs: 1.234 });

    expect(writer.chunks).toEqual(['[INFO] 2026-11-22 19:33:07 GET /users/42 200 1.2ms\n']);
  });

  it('appends the error of a request entry after a dash and leaves the trace id out in production', () => {
    const { writer, log } = textLogger(true);
    log.request({
      method: 'POST',
      path: '/orders',
      status: 500,
      durationMs: 1523.44,
      traceId: 'abc123',
      error: 'Error: db down\n    at connect (db.ts:1:1)',
    });

    expect(writer.chunks).toEqual([
      '[ERROR] 2026-11-22 19:33:07 POST /orders 500 1523.4ms - Error: db down\\n    at connect (db.ts:1:1)\n',
    ]);
  });

  it('escapes control characters in the method, path and error of a request entry in production', () => {
    const { writer, log } = textLogger(true);
    log.request({
      method: 'GET\n[INFO]',
      path: '/a\r\n[INFO] 2026-11-22 19:33:07 GET /admin 200 0.1ms',
      status: 404,
      durationMs: 0.3,
      error: 'x\ny',
    });

    expect(writer.chunks).toHaveLength(1);
    expect(writer.chunks[0]?.split('\n')).toHaveLength(2);
    expect(writer.chunks[0]).toBe(
      '[WARN] 2026-11-22 19:33:07 GET\\n[INFO] /a\\r\\n[INFO] 2026-11-22 19:33:07 GET /admin 200 0.1ms 404 0.3ms - x\\ny\n',
    );
  });

  it('prints a stack one frame a line in development, continuation lines indented', () => {
    const { writer, log } = textLogger();
    const error = new Error('boom');
    log.warn(error);

    const lines = writer.chunks[0]!.split('\n');
    expect(lines[0]).toBe('[WARN] 2026-11-22 19:33:07 Error: boom');
    expect(lines.length).toBe(error.stack!.split('\n').length + 1);
    expect(lines.slice(1, -1).every((line) => /^ {4}at /.test(line))).toBe(true);
    expect(lines.at(-1)).toBe('');
  });

  it('keeps the request line exactly and puts the stack below it in development', () => {
    const { writer, log } = textLogger();
    log.request({
      method: 'POST',
      path: '/orders',
      status: 500,
      durationMs: 1523.44,
      error: 'Error: db down\n    at connect (db.ts:1:1)\ncaused by: Error: refused',
    });

    expect(writer.chunks).toEqual([
      '[ERROR] 2026-11-22 19:33:07 POST /orders 500 1523.4ms - Error: db down\n' +
        '    at connect (db.ts:1:1)\n' +
        '    caused by: Error: refused\n',
    ]);
  });

  it('indents a forged entry in development so no line but the first starts with [', () => {
    const { writer, log } = textLogger();
    log.warn('login failed for %s', 'bob\r\n[ERROR] 2026-11-22 19:33:07 database wiped\u001b');

    expect(writer.chunks).toEqual([
      '[WARN] 2026-11-22 19:33:07 login failed for bob\n' +
        '    [ERROR] 2026-11-22 19:33:07 database wiped\\u001b\n',
    ]);
  });

  it.each([
    [0.3, '0.3ms'],
    [0.04, '0.0ms'],
    [1.25, '1.3ms'],
    [1523.4, '1523.4ms'],
    [20, '20.0ms'],
  ])('prints a duration of %s ms as %s', (durationMs, printed) => {
    const { writer, log } = textLogger();
    log.request({ method: 'GET', path: '/', status: 200, durationMs });

    expect(writer.chunks[0]).toBe(`[INFO] 2026-11-22 19:33:07 GET / 200 ${printed}\n`);
  });
});
