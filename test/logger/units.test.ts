import { describe, expect, it } from 'vitest';
import { capLine, MAX_ENTRY_BYTES, overCap, truncateText } from '../../src/logger/cap.js';
import { isoTimestamp, localTimestamp } from '../../src/logger/clock.js';
import { formatDuration } from '../../src/logger/entry.js';
import { escapeText } from '../../src/logger/escape.js';
import { LogFormat, Logger, type LogWriter } from '../../src/logger/index.js';
import { collector } from './collector.js';

// The small pieces the encoders are built from, at their boundaries.

describe('truncateText', () => {
  it('leaves a text of exactly `keep` characters alone and cuts one more', () => {
    expect(truncateText('abc', 3)).toBe('abc');
    expect(truncateText('abcd', 3)).toBe('abc… [truncated 1 characters]');
    expect(truncateText('abc', 0)).toBe('… [truncated 3 characters]');
    expect(truncateText('abc', -5)).toBe('… [truncated 3 characters]');
  });

  it('never splits a surrogate pair, whichever high surrogate ends the kept part', () => {
    for (const pair of ['\u{10000}', '\u{10FFFF}', '😀']) {
      // The cut falls between the two halves of the pair: the whole pair goes.
      expect(truncateText(`a${pair}b`, 2)).toBe('a… [truncated 3 characters]');
    }
    // A pair kept whole, and a lone low surrogate, are kept as they are.
    expect(truncateText('a😀b', 3)).toBe('a😀… [truncated 1 characters]');
    expect(truncateText('a\udc00b', 2)).toBe('a\udc00… [truncated 1 characters]');
    // A high surrogate at the very start: nothing is kept.
    expect(truncateText('😀b', 1)).toBe('… [truncated 3 characters]');
  });
});

describe('overCap and capLine', () => {
  it('counts UTF-8 bytes: a line of exactly MAX_ENTRY_BYTES fits, one more byte does not', () => {
    expect(overCap('x'.repeat(MAX_ENTRY_BYTES))).toBe(false);
    expect(overCap('x'.repeat(MAX_ENTRY_BYTES + 1))).toBe(true);
    // Fewer characters than bytes: three-byte characters.
    const euros = '€'.repeat(Math.ceil((MAX_ENTRY_BYTES + 1) / 3));
    expect(overCap(euros)).toBe(true);
  });

  it('stops once nothing is left to cut, even if the line is still too long', () => {
    const tooLong = 'x'.repeat(MAX_ENTRY_BYTES + 10);
    const asked: number[] = [];
    const line = capLine(tooLong, (keep) => {
      asked.push(keep);
      return tooLong;
    });
    expect(line).toBe(tooLong);
    expect(asked.at(-1)).toBe(0);
    expect(asked.length).toBeLessThan(5_000);
  });
});

describe('formatDuration', () => {
  it('gives one decimal for ordinary durations, the integer way', () => {
    expect(formatDuration(0)).toBe('0.0ms');
    expect(formatDuration(1.26)).toBe('1.3ms');
    expect(formatDuration(10)).toBe('10.0ms');
  });

  it('falls back to toFixed for what the integer way cannot do: negative, huge, not a number', () => {
    expect(formatDuration(-2.26)).toBe('-2.3ms');
    expect(formatDuration(1e22)).toBe('1e+22ms');
    expect(formatDuration(Number.NaN)).toBe('NaNms');
    expect(formatDuration(Number.POSITIVE_INFINITY)).toBe('Infinityms');
  });
});

describe('the timestamps', () => {
  it('formats local time with two digits for 10 and four for a year below 1000', () => {
    expect(localTimestamp(new Date(2026, 9, 10, 10, 10, 10).getTime())).toBe('2026-10-10 10:10:10');
    expect(localTimestamp(new Date(999, 0, 2, 3, 4, 5).getTime())).toBe('0999-01-02 03:04:05');
    expect(localTimestamp(new Date(2026, 8, 9, 9, 9, 9, 999).getTime())).toBe(
      '2026-09-09 09:09:09',
    );
  });

  it('changes the ISO timestamp with the millisecond', () => {
    expect(isoTimestamp(Date.UTC(2026, 0, 1, 0, 0, 0, 1))).toBe('2026-01-01T00:00:00.001Z');
    expect(isoTimestamp(Date.UTC(2026, 0, 1, 0, 0, 0, 2))).toBe('2026-01-01T00:00:00.002Z');
  });
});

describe('escapeText', () => {
  it('escapes C1 control characters up to U+009F, and no letter beyond', () => {
    expect(escapeText('\u009f')).toBe('\\u009f');
    expect(escapeText('\u007f')).toBe('\\u007f');
    expect(escapeText('é\u0000ü\u00a0')).toBe('é\\u0000ü\u00a0');
  });
});

describe('child logger fields', () => {
  function withFields(format: LogFormat, fields: Record<string, unknown>): string {
    const out = collector();
    new Logger({ isProduction: false, format, writer: out }).with(fields).info('hi');
    return out.chunks[0]!;
  }

  it('quotes a text-layout name that is not a whole plain word', () => {
    const line = withFields(LogFormat.Text, { '9a': 1, 'a b': 2, ok_1: 3 });
    expect(line).toContain(' "9a"=1');
    expect(line).toContain(' "a b"=2');
    expect(line).toContain(' ok_1=3');
  });

  it('leaves out a field whose value is undefined, in both layouts', () => {
    for (const format of [LogFormat.Text, LogFormat.JSON]) {
      const line = withFields(format, { gone: undefined, kept: 'x' });
      expect(line, format).not.toContain('gone');
      expect(line, format).toContain('kept');
    }
  });

  it('never lets a field take the place of time, level or message in JSON', () => {
    const line = withFields(LogFormat.JSON, { time: 'then', level: 'fake', message: 'm' });
    expect(line.match(/"time"/g)).toHaveLength(1);
    expect(line.match(/"level"/g)).toHaveLength(1);
    expect(JSON.parse(line)).toMatchObject({ level: 'info', message: 'hi' });
  });
});

describe('a cut request entry', () => {
  it('is written when it has no error', () => {
    const out = collector();
    const log = new Logger({ isProduction: true, format: LogFormat.JSON, writer: out });
    log.request({ method: 'GET', path: `/${'p'.repeat(100_000)}`, status: 200, durationMs: 1 });
    const entry = JSON.parse(out.chunks[0]!) as Record<string, unknown>;
    expect(entry.path).toMatch(/\[truncated \d+ characters\]$/);
    expect(entry).not.toHaveProperty('error');
  });
});

describe('flushSync', () => {
  it('passes a deadline on only when given one', () => {
    const calls: number[] = [];
    const writer: LogWriter & { flushSync(...args: unknown[]): void } = {
      write() {},
      flushSync(...args: unknown[]) {
        calls.push(args.length);
      },
    };
    const log = new Logger({ isProduction: true, format: LogFormat.JSON, writer });
    log.flushSync();
    log.flushSync(50);
    expect(calls).toEqual([0, 1]);
  });
});
