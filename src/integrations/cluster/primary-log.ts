/**
 * The primary's default logger, in the format its workers log in.
 * @module
 */
import { LogFormat, type Logger, newLoggerWithFormat } from '../../logger/index.js';

/** What the primary logs through. */
export type PrimaryLogger = Pick<Logger, 'info' | 'warn' | 'flushSync'>;

type Entry = readonly ['info' | 'warn', unknown, unknown[]];

// How long the primary waits for a worker's first line before it picks a format from NODE_ENV.
const WAIT_FOR_WORKERS_MS = 30_000;

/**
 * A logger that writes in the format of the workers' output: JSON when their first line is a
 * JSON object, text otherwise. The workers' App picks its format from its own `env`, which the
 * primary cannot see; entries logged before a worker's first line are held until then. NODE_ENV
 * decides, as for `newLogger`, when no worker has written a line within 30 s, or when one
 * exits first (its crash is not held back).
 */
export class FollowingLogger implements PrimaryLogger {
  readonly #isProduction = process.env.NODE_ENV === 'production';
  readonly #held: Entry[] = [];
  readonly #timer: NodeJS.Timeout;
  #logger: Logger | undefined;

  /** Starts the wait for the workers' first line. */
  constructor() {
    this.#timer = setTimeout(() => this.#choose(undefined), WAIT_FOR_WORKERS_MS);
    this.#timer.unref();
  }

  /** Looks at a worker's output; the first line seen decides the format. */
  observe(lines: string): void {
    if (this.#logger === undefined) this.#choose(lines);
  }

  /** Picks the format now if no worker has spoken yet: NODE_ENV's. */
  settle(): void {
    this.#choose(undefined);
  }

  /** Logs, or holds the entry until the format is known. */
  info(format: unknown, ...args: unknown[]): void {
    this.#log('info', format, args);
  }

  /** Logs a warning, or holds it until the format is known. */
  warn(format: unknown, ...args: unknown[]): void {
    this.#log('warn', format, args);
  }

  /** Writes what is held (in NODE_ENV's format if no worker spoke yet) and flushes. */
  flushSync(timeoutMs?: number): void {
    (this.#logger ?? this.#choose(undefined)).flushSync(timeoutMs);
  }

  #log(level: Entry[0], format: unknown, args: unknown[]): void {
    if (this.#logger) this.#logger[level](format, ...args);
    else this.#held.push([level, format, args]);
  }

  #choose(firstLine: string | undefined): Logger {
    if (this.#logger) return this.#logger;
    clearTimeout(this.#timer);
    const json =
      firstLine === undefined ? this.#isProduction : firstLine.trimStart().startsWith('{');
    const logger = newLoggerWithFormat(this.#isProduction, json ? LogFormat.JSON : LogFormat.Text);
    this.#logger = logger;
    for (const [level, format, args] of this.#held.splice(0)) logger[level](format, ...args);
    return logger;
  }
}
