import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LogFormat, Logger } from '../../src/logger/index.js';
import { collector } from './collector.js';

const NOW = Date.UTC(2026, 10, 22, 14, 3, 7, 123);
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function jsonLogger() {
  const writer = collector();
  const log = new Logger({ isProduction: false, format: LogFormat.JSON, writer });
  const entries = (): Record<string, unknown>[] =>
    writer.chunks.map((chunk) => {
      expect(chunk).toMatch(/^\{[^\n]*\}\n$/);
      return JSON.parse(chunk) as Record<string, unknown>;
    });
  return { writer, log, entries };
}

describe('the JSON format', () => {
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

  it('writes one object per line with level, time and message, in that order', () => {
    const { writer, log, entries } = jsonLogger();
    log.info('user %s did %d things', 'alice', 42);

    expect(writer.chunks).toEqual([
      '{"level":"info","time":"2026-11-22T14:03:07.123Z","message":"user alice did 42 things"}\n',
    ]);
    expect(Object.keys(entries()[0] ?? {})).toEqual(['level', 'time', 'message']);
  });

  it('writes the level in lower case', () => {
    const { log, entries } = jsonLogger();
    log.debug('d');
    log.info('i');
    log.warn('w');

    expect(entries().map((entry) => entry.level)).toEqual(['debug', 'info', 'warn']);
  });

  it('writes the time in UTC with milliseconds, whatever the local time zone', () => {
    const { log, entries } = jsonLogger();
    log.info('a');
    vi.setSystemTime(NOW + 1);
    log.info('b');

    const times = entries().map((entry) => entry.time);
    expect(times).toEqual(['2026-11-22T14:03:07.123Z', '2026-11-22T14:03:07.124Z']);
    for (const time of times) expect(time).toMatch(ISO_UTC);
  });

  it('keeps a message with newlines, quotes and control characters on one line, intact', () => {
    const { writer, log, entries } = jsonLogger();
    const forged = 'bob"}\n{"level":"error","time":"x","message":"wiped\r\u0000\u001b[31m\u2028\\';
    log.warn('login failed for %s', forged);

    expect(writer.chunks).toHaveLength(1);
    expect(entries()[0]?.message).toBe(`login failed for ${forged}`);
  });

  it('keeps a message with a lone surrogate valid JSON', () => {
    const { log, entries } = jsonLogger();
    log.info('half \ud800 a pair');

    expect(entries()[0]?.message).toBe('half \ud800 a pair');
  });

  it('writes a request entry with method, path, a numeric status and a duration string', () => {
    const { writer, log, entries } = jsonLogger();
    log.request({ method: 'GET', path: '/users/42', status: 200, durationMs: 1.234 });

    expect(writer.chunks).toEqual([
      '{"level":"info","time":"2026-11-22T14:03:07.123Z","method":"GET","path":"/users/42","status":200,"duration":"1.2ms"}\n',
    ]);
    expect(Object.keys(entries()[0] ?? {})).toEqual([
      'level',
      'time',
      'method',
      'path',
      'status',
      'duration',
    ]);
  });

  it('adds traceId and error to a request entry when they are given', () => {
    const { log, entries } = jsonLogger();
    const stack = 'Error: db down\n    at connect (db.ts:1:1)';
    log.request({
      method: 'POST',
      path: '/orders',
      status: 503,
      durationMs: 1523.44,
      traceId: 'abc123',
      error: stack,
    });

    expect(entries()).toEqual([
      {
        level: 'error',
        time: '2026-11-22T14:03:07.123Z',
        method: 'POST',
        path: '/orders',
        status: 503,
        duration: '1523.4ms',
        traceId: 'abc123',
        error: stack,
      },
    ]);
    expect(Object.keys(entries()[0] ?? {}).slice(-2)).toEqual(['traceId', 'error']);
  });

  it('keeps a request entry with newlines and quotes in method, path and error on one line', () => {
    const { writer, log, entries } = jsonLogger();
    const fields = {
      method: 'GET\n{"level":"info"}',
      path: '/a"}\n{"x":1',
      status: 404,
      traceId: 't"\n',
      error: 'x\ny',
    };
    log.request({ ...fields, durationMs: 0.3 });

    expect(writer.chunks).toHaveLength(1);
    expect(entries()[0]).toMatchObject({ level: 'warn', ...fields, duration: '0.3ms' });
  });

  it('writes null for a status that is not a finite number, keeping the line valid', () => {
    const { log, entries } = jsonLogger();
    log.request({ method: 'GET', path: '/', status: Number.NaN, durationMs: 1 });

    expect(entries()[0]?.status).toBeNull();
  });
});
