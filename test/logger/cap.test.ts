import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_ENTRY_BYTES, truncateText } from '../../src/logger/cap.js';
import { LogFormat, Logger } from '../../src/logger/index.js';
import { collector } from './collector.js';

function logger(format: LogFormat) {
  const out = collector();
  return { log: new Logger({ isProduction: false, format, writer: out }), out };
}

const bytes = (s: string) => Buffer.byteLength(s);

describe('the cap on one log entry', () => {
  it('writes a message over 64 KiB cut short, as valid JSON, with a mark saying how much was cut', () => {
    const { log, out } = logger(LogFormat.JSON);
    log.warn('big: %s', 'x'.repeat(8_000_000));
    const line = out.chunks[0]!;
    expect(bytes(line)).toBeLessThanOrEqual(MAX_ENTRY_BYTES);
    expect(line.endsWith('\n')).toBe(true);
    const entry = JSON.parse(line) as { level: string; message: string };
    expect(entry.level).toBe('warn');
    expect(entry.message).toMatch(/^big: x+… \[truncated \d+ characters\]$/);
    const cut = Number(/truncated (\d+)/.exec(entry.message)![1]);
    expect(
      entry.message.length - '… [truncated  characters]'.length - String(cut).length + cut,
    ).toBe('big: '.length + 8_000_000);
  });

  it('caps a request entry with a huge error and a huge path in text and JSON', () => {
    for (const format of [LogFormat.JSON, LogFormat.Text]) {
      const { log, out } = logger(format);
      log.request({
        method: 'GET',
        path: `/${'p'.repeat(100_000)}`,
        status: 500,
        durationMs: 1,
        error: 'Error: boom\n'.repeat(200_000),
      });
      const line = out.chunks[0]!;
      expect(bytes(line)).toBeLessThanOrEqual(MAX_ENTRY_BYTES);
      expect(line).toContain('[truncated ');
      if (format === LogFormat.JSON) {
        expect(line.split('\n')).toHaveLength(2);
        expect(JSON.parse(line)).toMatchObject({ status: 500 });
      }
    }
  });

  it('leaves an entry under the cap exactly as it was', () => {
    const { log, out } = logger(LogFormat.JSON);
    const text = 'y'.repeat(60_000);
    log.info(text);
    expect(JSON.parse(out.chunks[0]!).message).toBe(text);
  });

  it('keeps every capped line valid JSON whatever characters the message holds', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', minLength: 0, maxLength: 200 }),
        fc.integer({ min: 400, max: 5_000 }),
        (chunk, times) => {
          const { log, out } = logger(LogFormat.JSON);
          log.info('%s', chunk.repeat(times));
          const line = out.chunks[0]!;
          expect(bytes(line)).toBeLessThanOrEqual(MAX_ENTRY_BYTES);
          const message = (JSON.parse(line) as { message: string }).message;
          const kept = message.replace(/… \[truncated \d+ characters\]$/, '');
          expect(chunk.repeat(times).startsWith(kept)).toBe(true);
        },
      ),
      { numRuns: 15 },
    );
  });

  it('logs a request cut off with a 200 at warn, not as a clean 200', () => {
    const { log, out } = logger(LogFormat.JSON);
    log.request({ method: 'GET', path: '/big', status: 200, durationMs: 3, error: 'cut off' });
    expect(JSON.parse(out.chunks[0]!)).toMatchObject({
      level: 'warn',
      status: 200,
      error: 'cut off',
    });
  });

  it('never splits a surrogate pair when it cuts', () => {
    expect(truncateText('a😀b', 2)).toBe('a… [truncated 3 characters]');
    expect(truncateText('short', 10)).toBe('short');
  });
});
