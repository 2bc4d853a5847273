import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { watchProcessFaults } from '../../src/process-faults.js';
import { memoryLogger } from './helpers.js';

// The process-level handlers are called directly (emitting the events would reach the test
// runner's own handlers) and removed after each test.

type Listener = (value: unknown) => void;
let stop: (() => void) | undefined;
afterEach(() => {
  vi.restoreAllMocks();
  stop?.();
  stop = undefined;
});

function watch(): { onRejection: Listener; onException: Listener; lines: string[] } {
  const { logger, lines } = memoryLogger();
  const before = {
    rejection: process.listeners('unhandledRejection'),
    exception: process.listeners('uncaughtException'),
  };
  stop = watchProcessFaults(logger);
  const [onRejection] = process
    .listeners('unhandledRejection')
    .filter((l) => !before.rejection.includes(l)) as Listener[];
  const [onException] = process
    .listeners('uncaughtException')
    .filter((l) => !before.exception.includes(l)) as Listener[];
  return { onRejection: onRejection!, onException: onException!, lines };
}

describe('watchProcessFaults', () => {
  it('logs a rejection as a warning and an uncaught exception as an error, each described', () => {
    const { onRejection, onException, lines } = watch();
    const unprintable = {
      [inspect.custom]() {
        throw new Error('no');
      },
    };
    const cases: [Listener, unknown, string, RegExp][] = [
      [
        onRejection,
        new Error('lost task'),
        'warn',
        /^unhandled promise rejection \(still serving\): Error: lost task\n\s+at /,
      ],
      [
        onRejection,
        'plain text',
        'warn',
        /^unhandled promise rejection \(still serving\): plain text$/,
      ],
      [
        onRejection,
        { nested: { deep: { deeper: { deepest: 1 } } }, b: 2 },
        'warn',
        /^unhandled promise rejection \(still serving\): \{ nested: \{ deep: \{ deeper: \[Object\] \} \}, b: 2 \}$/,
      ],
      [
        onRejection,
        unprintable,
        'warn',
        /^unhandled promise rejection \(still serving\): an unprintable value$/,
      ],
      [
        onException,
        new TypeError('boom'),
        'error',
        /^uncaught exception, exiting: TypeError: boom\n/,
      ],
    ];
    // logger.error exits the process after writing: the exit is stubbed to throw instead.
    const exit = vi.spyOn(process, 'exit').mockImplementation((code) => {
      throw new Error(`exit ${String(code)}`);
    });
    for (const [listener, value, level, message] of cases) {
      lines.length = 0;
      if (level === 'error') expect(() => listener(value)).toThrow('exit 1');
      else listener(value);
      expect(lines).toHaveLength(1);
      const entry = JSON.parse(lines[0]!) as { level: string; message: string };
      expect(entry.level).toBe(level);
      expect(entry.message).toMatch(message);
    }
    expect(exit).toHaveBeenCalledTimes(1);
  });

  it('stops watching when told to', () => {
    const count = () =>
      process.listenerCount('unhandledRejection') + process.listenerCount('uncaughtException');
    const start = count();
    const { logger } = memoryLogger();
    const off = watchProcessFaults(logger);
    expect(count()).toBe(start + 2);
    off();
    expect(count()).toBe(start);
  });
});
