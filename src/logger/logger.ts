import { capLine, overCap, truncateText } from './cap.js';
import { flushStdoutQuietly, stdoutDestination } from './destination.js';
import { type LineEncoder, type LogLevel, type RequestLogEntry, requestLevel } from './entry.js';
import type { LogFields } from './fields.js';
import { formatMessage } from './format.js';
import { jsonEncoder } from './json.js';
import { LogFormat } from './log-format.js';
import { teeWriter } from './tee.js';
import { devTextEncoder, textEncoder } from './text.js';
import { flushWriter, flushWriterSync, type LogWriter } from './writer.js';

/** What a Logger is built from; `newLogger` and `newLoggerWithFormat` fill it in. */
export interface LoggerOptions {
  /** In production debug entries are dropped. */
  isProduction: boolean;
  /** The layout of every entry. */
  format: LogFormat;
  /**
   * Where entries go; each entry is written to it as soon as it is logged.
   * @default the process-wide buffered stdout
   */
  writer?: LogWriter;
}

const ENCODERS: Readonly<Record<LogFormat, LineEncoder>> = {
  [LogFormat.Text]: textEncoder,
  [LogFormat.JSON]: jsonEncoder,
};

function encoderFor(format: LogFormat, isProduction: boolean): LineEncoder | undefined {
  // In development a stack is for a person to read: one frame a line.
  if (format === LogFormat.Text && !isProduction) return devTextEncoder;
  return ENCODERS[format];
}

/**
 * Writes leveled, printf-style entries as text or JSON lines.
 * @example
 * const log = newLogger(false);
 * log.info('listening on port %d', 3000); // [INFO] 2026-11-22 14:03:07 listening on port 3000
 */
export class Logger {
  /** The layout of every entry. */
  readonly format: LogFormat;
  /** In production debug entries are dropped. */
  readonly isProduction: boolean;
  readonly #writer: LogWriter;
  readonly #encoder: LineEncoder;
  #fields: LogFields = {};
  #encodedFields = '';

  /** Prefer `newLogger` or `newLoggerWithFormat`. */
  constructor({ isProduction, format, writer }: LoggerOptions) {
    const encoder = Object.hasOwn(ENCODERS, format) ? encoderFor(format, isProduction) : undefined;
    if (encoder === undefined) {
      throw new TypeError(`format should be 'text' or 'json', instead got '${String(format)}'`);
    }
    this.format = format;
    this.isProduction = isProduction;
    this.#writer = writer ?? stdoutDestination();
    this.#encoder = encoder;
    if (writer === undefined) lastForStdout = { isProduction, format };
  }

  /** Writes a general informational entry, formatted like `util.format`. */
  info(format: unknown, ...args: unknown[]): void {
    this.#log('info', format, args);
  }

  /** Writes a detailed diagnostic entry; writes nothing in production. */
  debug(format: unknown, ...args: unknown[]): void {
    if (!this.isProduction) this.#log('debug', format, args);
  }

  /** Writes an entry about a non-fatal condition worth attention. */
  warn(format: unknown, ...args: unknown[]): void {
    this.#log('warn', format, args);
  }

  /**
   * Writes an error-level entry for a failure the service lives through (an event given up after
   * its retries); unlike `error`, it does not exit.
   */
  failure(format: unknown, ...args: unknown[]): void {
    this.#log('error', format, args);
  }

  /**
   * For fatal configuration errors at startup: writes the entry, flushes everything buffered
   * synchronously, and exits the process with code 1.
   */
  error(format: unknown, ...args: unknown[]): never {
    this.#log('error', format, args);
    try {
      flushWriterSync(this.#writer);
    } catch {
      // Exiting matters more than reporting a writer that cannot flush.
    }
    flushStdoutQuietly();
    process.exit(1);
  }

  /**
   * Writes a request entry; the level follows the status (<400 info, 4xx warn, 5xx error), and
   * an entry with an `error` (a response cut off) is at least warn.
   */
  request(entry: RequestLogEntry): void {
    let level = requestLevel(entry.status);
    if (level === 'info' && entry.error !== undefined) level = 'warn';
    const ms = Date.now();
    const line = this.#encoder.request(level, entry, ms);
    this.#writer.write(
      overCap(line)
        ? capLine(line, (keep) => this.#encoder.request(level, cut(entry, keep), ms))
        : line,
    );
  }

  /** A new Logger with the same format, production flag and fields that writes to `writer`. */
  withWriter(writer: LogWriter): Logger {
    const copy = new Logger({ isProduction: this.isProduction, format: this.format, writer });
    copy.#setFields(this.#fields);
    return copy;
  }

  /**
   * A child logger: the same format and writer, and every entry it writes carries `fields`
   * (JSON: as members; text: ` key=value` after the message). Fields add to this logger's own.
   * @example app.logger.with({ job: 'cleanup' }).info('removed %d rows', n)
   */
  with(fields: LogFields): Logger {
    const child = new Logger({
      isProduction: this.isProduction,
      format: this.format,
      writer: this.#writer,
    });
    child.#setFields({ ...this.#fields, ...fields });
    return child;
  }

  /**
   * A new Logger like this one that writes each entry to this one's writer, then hands the line
   * to `tap` (the dev panel's log view). A tap that throws is ignored.
   */
  tee(tap: (line: string) => void): Logger {
    return this.withWriter(teeWriter(this.#writer, tap));
  }

  /** Resolves when everything buffered has reached the writer's sink. */
  flush(): Promise<void> {
    return flushWriter(this.#writer);
  }

  /**
   * Writes everything buffered to the sink before returning. With `timeoutMs`, a writer that
   * supports it (the stdout writer) gives up, throwing, when that time has passed.
   */
  flushSync(timeoutMs?: number): void {
    flushWriterSync(this.#writer, timeoutMs);
  }

  #log(level: LogLevel, format: unknown, args: unknown[]): void {
    const encoder = this.#encoder;
    const message =
      args.length === 0 && typeof format === 'string'
        ? encoder.escape(format)
        : formatMessage(format, args, encoder.escape);
    const ms = Date.now();
    const fields = this.#encodedFields;
    const line = encoder.message(level, message, ms, fields);
    if (!overCap(line)) {
      this.#writer.write(line);
      return;
    }
    // The slow path of an oversized entry: cut the text before escaping, so no escape is split.
    const raw =
      args.length === 0 && typeof format === 'string' ? format : formatMessage(format, args);
    this.#writer.write(
      capLine(line, (keep) =>
        encoder.message(level, encoder.escape(truncateText(raw, keep)), ms, fields),
      ),
    );
  }

  #setFields(fields: LogFields): void {
    this.#fields = fields;
    this.#encodedFields = this.#encoder.fields(fields);
  }
}

function cut(entry: RequestLogEntry, keep: number): RequestLogEntry {
  const short = { ...entry, path: truncateText(entry.path, keep) };
  if (entry.error !== undefined) short.error = truncateText(entry.error, keep);
  return short;
}

/** How the last Logger made for stdout logs: what `stdoutLogger()` follows. */
let lastForStdout: { readonly isProduction: boolean; readonly format: LogFormat } | undefined;

/**
 * A Logger for stdout in the format of the last Logger made for stdout (the App's, typically),
 * else development text: for a module that logs without having been given the app's logger,
 * so that its lines still match the app's.
 * @example this.#logger ??= stdoutLogger();
 */
export function stdoutLogger(): Logger {
  const { isProduction, format } = lastForStdout ?? {
    isProduction: false,
    format: LogFormat.Text,
  };
  return new Logger({ isProduction, format });
}

/**
 * A Logger for stdout: in development text with debug entries, in production JSON without.
 * @example const log = newLogger(process.env.NODE_ENV === 'production');
 */
export function newLogger(isProduction: boolean): Logger {
  return new Logger({ isProduction, format: isProduction ? LogFormat.JSON : LogFormat.Text });
}

/**
 * A Logger for stdout in the given format; debug entries still follow `isProduction`.
 * @example const log = newLoggerWithFormat(false, LogFormat.JSON); // JSON in development
 */
export function newLoggerWithFormat(isProduction: boolean, format: LogFormat): Logger {
  return new Logger({ isProduction, format });
}
