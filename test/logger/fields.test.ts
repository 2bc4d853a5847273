import { describe, expect, it } from 'vitest';
import { LogFormat, Logger } from '../../src/logger/index.js';
import { collector } from './collector.js';

function loggerOf(format: LogFormat, isProduction = false) {
  const writer = collector();
  return { writer, log: new Logger({ isProduction, format, writer }) };
}

describe('logger.with(fields)', () => {
  it('writes the fields as members of every JSON entry', () => {
    const { writer, log } = loggerOf(LogFormat.JSON);
    const child = log.with({ requestId: 'r-1', attempt: 2, tags: ['a'] });
    child.info('hello %s', 'bob');
    child.warn('again');

    const entries = writer.chunks.map((c) => JSON.parse(c) as Record<string, unknown>);
    expect(entries.map(({ time: _t, ...rest }) => rest)).toEqual([
      { level: 'info', message: 'hello bob', requestId: 'r-1', attempt: 2, tags: ['a'] },
      { level: 'warn', message: 'again', requestId: 'r-1', attempt: 2, tags: ['a'] },
    ]);
  });

  it('writes key=value after the text message, quoting values with spaces', () => {
    const { writer, log } = loggerOf(LogFormat.Text);
    log.with({ requestId: 'r-1', user: 'Ada Lovelace', n: 3 }).info('done');

    expect(writer.chunks[0]).toMatch(
      /^\[INFO\] \d{4}-\d\d-\d\d \d\d:\d\d:\d\d done requestId=r-1 user="Ada Lovelace" n=3\n$/,
    );
  });

  it('escapes a field value that tries to start a new text line', () => {
    const { writer, log } = loggerOf(LogFormat.Text);
    log.with({ requestId: 'x\n[ERROR] forged' }).info('m');

    expect(writer.chunks[0]?.split('\n')).toHaveLength(2);
    expect(writer.chunks[0]).toContain('requestId="x\\n[ERROR] forged"');
  });

  it('leaves the parent unchanged and merges the fields of nested children', () => {
    const { writer, log } = loggerOf(LogFormat.JSON);
    const child = log.with({ a: 1 });
    child.with({ b: 2, a: 3 }).info('nested');
    log.info('parent');

    const [nested, parent] = writer.chunks.map((c) => JSON.parse(c) as Record<string, unknown>);
    expect(nested).toMatchObject({ a: 3, b: 2, message: 'nested' });
    expect(parent).not.toHaveProperty('a');
  });

  it('never lets a field replace level, time or message, and never throws on a BigInt', () => {
    const { writer, log } = loggerOf(LogFormat.JSON);
    log.with({ level: 'fake', message: 'fake', big: 10n, skipped: undefined }).info('real');

    const entry = JSON.parse(writer.chunks[0]!) as Record<string, unknown>;
    expect(entry).toMatchObject({ level: 'info', message: 'real', big: '10n' });
    expect(Object.keys(entry)).toEqual(['level', 'time', 'message', 'big']);
  });

  it('keeps the fields across withWriter and the request entries free of them', () => {
    const { log } = loggerOf(LogFormat.JSON);
    const writer = collector();
    const child = log.with({ requestId: 'r-2' }).withWriter(writer);
    child.info('x');
    child.request({ method: 'GET', path: '/', status: 200, durationMs: 1 });

    expect(JSON.parse(writer.chunks[0]!)).toMatchObject({ requestId: 'r-2' });
    expect(JSON.parse(writer.chunks[1]!)).not.toHaveProperty('requestId');
  });
});
