import { describe, expectTypeOf, it } from 'vitest';
import type {
  LogFormat,
  Logger,
  LogLevel,
  LogWriter,
  RequestLogEntry,
} from '../../src/logger/index.js';

describe('the logger types', () => {
  it('names the formats and levels as string unions', () => {
    expectTypeOf<LogFormat>().toEqualTypeOf<'text' | 'json'>();
    expectTypeOf<LogLevel>().toEqualTypeOf<'debug' | 'info' | 'warn' | 'error'>();
  });

  it('types error() as never returning', () => {
    expectTypeOf<Logger['error']>().returns.toBeNever();
    expectTypeOf<Logger['info']>().returns.toBeVoid();
  });

  it('accepts anything as a format and as arguments', () => {
    expectTypeOf<Logger['info']>().parameters.toEqualTypeOf<[unknown, ...unknown[]]>();
  });

  it('makes only requestId, ip, traceId, error and deprecated optional in a request entry', () => {
    expectTypeOf<RequestLogEntry>().toEqualTypeOf<{
      method: string;
      path: string;
      status: number;
      durationMs: number;
      requestId?: string;
      ip?: string;
      traceId?: string;
      error?: string;
      deprecated?: string;
    }>();
  });

  it('accepts any object with write(string) as a writer', () => {
    expectTypeOf({ write: (_chunk: string) => true }).toExtend<LogWriter>();
    expectTypeOf(process.stdout).toExtend<LogWriter>();
  });
});
