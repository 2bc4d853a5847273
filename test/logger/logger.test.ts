import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sonicBoom from 'sonic-boom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  LogFormat,
  Logger,
  type LogLevel,
  newLogger,
  newLoggerWithFormat,
} from '../../src/logger/index.js';
import { type Collector, collector } from './collector.js';

const { SonicBoom } = sonicBoom;

function levelOf(format: LogFormat, chunk: string): LogLevel {
  if (format === LogFormat.JSON) return (JSON.parse(chunk) as { level: LogLevel }).level;
  return /^\[([A-Z]+)\] /.exec(chunk)?.[1]?.toLowerCase() as LogLevel;
}

function loggerTo(writer: Collector, isProduction = false, format: LogFormat = LogFormat.Text) {
  return new Logger({ isProduction, format, writer });
}

describe('newLogger', () => {
  it('writes text with debug entries in development', () => {
    const writer = collector();
    const log = newLogger(false).withWriter(writer);
    log.debug('details');

    expect([log.format, log.isProduction]).toEqual([LogFormat.Text, false]);
    expect(writer.chunks).toEqual([expect.stringMatching(/^\[DEBUG\] .* details\n$/)]);
  });

  it('writes JSON without debug entries in production', () => {
    const writer = collector();
    const log = newLogger(true).withWriter(writer);
    log.debug('details');
    log.info('kept');

    expect([log.format, log.isProduction]).toEqual([LogFormat.JSON, true]);
    expect(writer.chunks.map((chunk) => JSON.parse(chunk).message)).toEqual(['kept']);
  });
});

describe('newLoggerWithFormat', () => {
  it('forces JSON in development and keeps debug entries', () => {
    const writer = collector();
    const log = newLoggerWithFormat(false, LogFormat.JSON).withWriter(writer);
    log.debug('details');

    expect(log.format).toBe(LogFormat.JSON);
    expect(writer.chunks.map((chunk) => JSON.parse(chunk))).toEqual([
      { level: 'debug', time: expect.any(String), message: 'details' },
    ]);
  });

  it('forces text in production and still drops debug entries', () => {
    const writer = collector();
    const log = newLoggerWithFormat(true, LogFormat.Text).withWriter(writer);
    log.debug('details');
    log.warn('kept');

    expect(log.format).toBe(LogFormat.Text);
    expect(writer.chunks).toEqual([expect.stringMatching(/^\[WARN\] .* kept\n$/)]);
  });
});

describe('Logger', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('rejects a format it does not know, naming it', () => {
    expect(() => new Logger({ isProduction: false, format: 'xml' as LogFormat })).toThrow(
      "format should be 'text' or 'json', instead got 'xml'",
    );
  });

  it('hands each entry to its writer as it is written, one entry per write', () => {
    const writer = collector();
    const log = loggerTo(writer);
    log.info('one');
    expect(writer.chunks).toHaveLength(1);
    log.warn('two');
    expect(writer.chunks).toHaveLength(2);
  });

  describe('withWriter', () => {
    it('returns a new Logger with the same format and production flag', () => {
      const original = loggerTo(collector(), true, LogFormat.Text);
      const copy = original.withWriter(collector());

      expect(copy).not.toBe(original);
      expect([copy.format, copy.isProduction]).toEqual([LogFormat.Text, true]);
    });

    it("leaves the original's writer alone", () => {
      const first = collector();
      const second = collector();
      const original = loggerTo(first);
      const copy = original.withWriter(second);
      copy.info('to the copy');
      original.info('to the original');

      expect(first.chunks).toEqual([expect.stringContaining(' to the original\n')]);
      expect(second.chunks).toEqual([expect.stringContaining(' to the copy\n')]);
    });
  });

  describe.each([LogFormat.Text, LogFormat.JSON])('request entries in %s', (format) => {
    it.each([
      [200, 'info'],
      [201, 'info'],
      [301, 'info'],
      [399, 'info'],
      [400, 'warn'],
      [404, 'warn'],
      [499, 'warn'],
      [500, 'error'],
      [503, 'error'],
    ])('logs status %i at %s', (status, level) => {
      const writer = collector();
      loggerTo(writer, false, format).request({ method: 'GET', path: '/', status, durationMs: 1 });

      expect(writer.chunks.map((chunk) => levelOf(format, chunk))).toEqual([level]);
    });

    it('does not exit the process for a 5xx entry', () => {
      const exit = vi.spyOn(process, 'exit').mockImplementation(() => {
        throw new Error('process.exit was called');
      });
      const writer = collector();
      loggerTo(writer, true, format).request({
        method: 'GET',
        path: '/',
        status: 500,
        durationMs: 1,
        error: 'Error: boom',
      });

      expect(exit).not.toHaveBeenCalled();
      expect(writer.chunks).toHaveLength(1);
    });
  });

  describe('error', () => {
    it('writes the entry, flushes the writer synchronously, then exits with code 1', () => {
      const calls: string[] = [];
      const writer = {
        write: (chunk: string) => calls.push(`write ${chunk.slice(0, 7)}`),
        flushSync: () => calls.push('flushSync'),
      };
      vi.spyOn(process, 'exit').mockImplementation((code) => {
        calls.push(`exit ${code}`);
        throw new Error('stop here');
      });

      expect(() => new Logger({ isProduction: true, format: 'text', writer }).error('x')).toThrow(
        'stop here',
      );
      expect(calls).toEqual(['write [ERROR]', 'flushSync', 'exit 1']);
    });

    it('still exits when the writer cannot flush', () => {
      const exit = vi.spyOn(process, 'exit').mockImplementation(() => {
        throw new Error('stop here');
      });
      const writer = {
        write: () => undefined,
        flushSync: () => {
          throw new Error('disk gone');
        },
      };

      expect(() => new Logger({ isProduction: true, format: 'json', writer }).error('x')).toThrow(
        'stop here',
      );
      expect(exit).toHaveBeenCalledWith(1);
    });
  });

  describe('flush', () => {
    let dir: string | undefined;
    afterEach(() => {
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
      dir = undefined;
    });

    function tempFile(): string {
      dir = mkdtempSync(join(tmpdir(), 'keelson-logger-'));
      return join(dir, 'log.txt');
    }

    it('resolves once a buffering writer has written everything to its sink', async () => {
      const file = tempFile();
      const sonic = new SonicBoom({ dest: file, minLength: 4096, sync: false });
      const log = loggerTo(collector()).withWriter(sonic);
      for (let i = 0; i < 100; i++) log.info('entry %d', i);
      await log.flush();

      const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
      expect(lines).toHaveLength(100);
      expect(lines.at(-1)).toMatch(/ entry 99$/);
      sonic.destroy();
    });

    it('flushSync writes everything buffered before it returns', () => {
      const file = tempFile();
      const sonic = new SonicBoom({ fd: openSync(file, 'a'), minLength: 4096, sync: true });
      const log = loggerTo(collector()).withWriter(sonic);
      log.info('buffered');
      expect(readFileSync(file, 'utf8')).toBe('');
      log.flushSync();

      expect(readFileSync(file, 'utf8')).toMatch(/^\[INFO\] .* buffered\n$/);
      sonic.destroy();
    });

    it('resolves at once, and flushSync does nothing, for a writer that does not buffer', async () => {
      const writer = collector();
      const log = loggerTo(writer);
      log.info('x');
      log.flushSync();
      await expect(log.flush()).resolves.toBeUndefined();
      expect(writer.chunks).toHaveLength(1);
    });
  });
});

describe('Logger.tee', () => {
  it('writes each entry to the logger’s writer, then gives the same line to the tap', () => {
    const writer = collector();
    const tapped: string[] = [];
    const log = loggerTo(writer, false, LogFormat.JSON).tee((line) => tapped.push(line));
    log.info('hello %s', 'there');
    log.request({ method: 'GET', path: '/x', status: 404, durationMs: 1 });
    expect(tapped).toEqual(writer.chunks);
    expect(tapped.map((l) => JSON.parse(l).level)).toEqual(['info', 'warn']);
    expect([log.format, log.isProduction]).toEqual([LogFormat.JSON, false]);
  });

  it('keeps logging when the tap throws, and flushes the writer underneath', async () => {
    const writer = Object.assign(collector(), {
      flushed: 0,
      flushSync() {
        this.flushed++;
      },
    });
    const log = loggerTo(writer).tee(() => {
      throw new Error('tap broke');
    });
    log.warn('still written');
    log.flushSync();
    expect(writer.chunks).toEqual([expect.stringContaining('still written')]);
    expect(writer.flushed).toBe(1);
    await expect(log.flush()).resolves.toBeUndefined();
  });
});
