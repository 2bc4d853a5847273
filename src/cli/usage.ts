/**
 * Argument parsing for the keelson command: `util.parseArgs`, and the error that means "usage".
 * @module
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';

/** A mistake in how the command was called: printed with a pointer to `--help`, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Where a command writes and where it runs; tests give their own. */
export interface CliIo {
  /** The folder the command runs in. */
  readonly cwd: string;
  /** Normal output (tables, documents, next steps). */
  out(text: string): void;
  /** Diagnostics. */
  err(text: string): void;
  /** The environment the command reads (DATABASE_URL). @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** What `parse` returns: the option values by name and the positionals. */
export interface Parsed {
  readonly values: Record<string, string | boolean | undefined>;
  readonly positionals: string[];
}

/**
 * Parses `argv` strictly against `options` (plus `--help`); an unknown option, a missing value or
 * more than `maxPositionals` positionals is a UsageError.
 */
export function parse(argv: readonly string[], options: Options, maxPositionals: number): Parsed {
  let parsed: Parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    }) as Parsed;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (parsed.positionals.length > maxPositionals) {
    throw new UsageError(
      `unexpected argument ${JSON.stringify(parsed.positionals[maxPositionals])}`,
    );
  }
  return parsed;
}

/** The value of a string option, or undefined. */
export function stringOption(parsed: Parsed, name: string): string | undefined {
  const value = parsed.values[name];
  return typeof value === 'string' ? value : undefined;
}
