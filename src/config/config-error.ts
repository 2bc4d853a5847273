/**
 * ConfigError, and how it shows the bad value it was given.
 * @module
 */

/** Longest rendering of a bad value in a message; the rest is cut to `…`. */
const MAX_RENDERED = 120;

/** One environment variable `loadConfig` found missing or invalid: its name and why, never its value. */
export interface ConfigIssue {
  /** The variable's name, such as `DATABASE_URL`. */
  readonly variable: string;
  /** Why it was refused, such as `is missing` or `must be a number`. */
  readonly reason: string;
}

/**
 * A KConfig value failed its check. The message names the field, what was expected and what was
 * found: `invalid config: port must be an integer in 0..65535, got 70000`.
 */
export class ConfigError extends Error {
  /** Always `'ConfigError'`. */
  override readonly name: string = 'ConfigError';
  /** Stable machine code of every configuration error. */
  readonly code = 'CONFIG_INVALID';
  /** The path of the bad field, e.g. `docs.servers[1]`; `config` for the whole object. */
  readonly field: string;
  /** The bad value, as given; undefined for environment variables, which may hold secrets. */
  readonly value: unknown;
  /** Every variable `loadConfig` refused; empty for a KConfig error. */
  readonly issues: readonly ConfigIssue[];

  /** `expected` completes "<field> must be …", e.g. `'an integer in 0..65535'`. */
  constructor(field: string, expected: string, value: unknown);
  /** Every environment variable that is missing or invalid; the message lists them, no values. */
  constructor(issues: readonly ConfigIssue[]);
  constructor(fieldOrIssues: string | readonly ConfigIssue[], expected?: string, value?: unknown) {
    if (typeof fieldOrIssues === 'string') {
      super(`invalid config: ${fieldOrIssues} must be ${expected}, got ${renderValue(value)}`);
      this.field = fieldOrIssues;
      this.value = value;
      this.issues = [];
    } else {
      const list = fieldOrIssues.map((i) => `\n  ${i.variable}: ${i.reason}`).join('');
      const count = fieldOrIssues.length;
      super(
        `invalid config: ${count} environment variable${count === 1 ? '' : 's'} missing or invalid:${list}`,
      );
      this.field = fieldOrIssues.map((i) => i.variable).join(', ');
      this.value = undefined;
      this.issues = fieldOrIssues;
    }
  }
}

/**
 * A short JSON-like rendering of any value for an error message: strings quoted, objects
 * abbreviated, cycles marked. Never throws.
 */
export function renderValue(value: unknown): string {
  let out: string;
  try {
    out = render(value, 0, new Set());
  } catch {
    out = '<unprintable value>';
  }
  return out.length > MAX_RENDERED ? `${out.slice(0, MAX_RENDERED - 1)}…` : out;
}

function render(value: unknown, depth: number, ancestors: Set<object>): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value.length > MAX_RENDERED ? value.slice(0, MAX_RENDERED) : value);
    case 'number':
      return Object.is(value, -0) ? '-0' : String(value);
    case 'bigint':
      return `${value}n`;
    case 'symbol':
      return value.toString();
    case 'function':
      return value.name ? `[Function ${value.name}]` : '[Function]';
    case 'undefined':
      return 'undefined';
    case 'boolean':
      return String(value);
  }
  if (value === null) return 'null';
  const obj = value as object;
  if (ancestors.has(obj)) return '[Circular]';
  if (Array.isArray(obj)) {
    if (depth >= 2) return '[…]';
    ancestors.add(obj);
    const items = obj.slice(0, 5).map((item) => render(item, depth + 1, ancestors));
    ancestors.delete(obj);
    return `[${items.join(', ')}${obj.length > 5 ? ', …' : ''}]`;
  }
  const proto = Object.getPrototypeOf(obj) as { constructor?: { name?: unknown } } | null;
  const ctor = proto?.constructor?.name;
  const prefix =
    proto === null || proto === Object.prototype || typeof ctor !== 'string' ? '' : `${ctor} `;
  if (depth >= 2) return `${prefix}{…}`;
  ancestors.add(obj);
  const keys = Object.keys(obj);
  const entries = keys
    .slice(0, 5)
    .map(
      (k) =>
        `${JSON.stringify(k)}: ${render((obj as Record<string, unknown>)[k], depth + 1, ancestors)}`,
    );
  ancestors.delete(obj);
  return `${prefix}{${entries.join(', ')}${keys.length > 5 ? ', …' : ''}}`;
}
