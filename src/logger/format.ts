import { type InspectOptions, inspect } from 'node:util';

// Like util.format, but on one line and without ever throwing: a log call must not fail
// because of what it was asked to print.
const ONE_LINE: InspectOptions = { breakLength: Number.POSITIVE_INFINITY, compact: true };
const FOR_S: InspectOptions = { ...ONE_LINE, depth: 0 };
const FOR_O: InspectOptions = { ...ONE_LINE, showHidden: true, showProxy: true, depth: 4 };

// A `%s` argument whose toString is one of these is inspected; any other toString is called.
const BUILT_IN_TO_STRING = new Set<unknown>([
  Object.prototype.toString,
  Array.prototype.toString,
  Error.prototype.toString,
  Date.prototype.toString,
  RegExp.prototype.toString,
  Function.prototype.toString,
  Number.prototype.toString,
  Boolean.prototype.toString,
  String.prototype.toString,
  Symbol.prototype.toString,
  BigInt.prototype.toString,
]);

const PERCENT = 37;

/** Turns a piece of caller-supplied text into what may stand in a log line. */
export type Escaper = (text: string) => string;

const asIs: Escaper = (text) => text;

/**
 * Formats a log message printf-style, like `util.format`: `%s %d %i %f %j %o %O %c %%`.
 * Extra arguments are appended with spaces, missing ones leave their verb as is, and a
 * non-string `first` is inspected. Objects print on one line. Never throws.
 *
 * `escaper` is applied to each piece (the format string, each argument's text) rather than to
 * the result: the pieces are flat strings that scan quickly, a freshly concatenated result is
 * not. Escaping character by character, the outcome is the same.
 * @example formatMessage('user %s did %d things', ['alice', 42]) // 'user alice did 42 things'
 */
export function formatMessage(first: unknown, args: readonly unknown[], escaper = asIs): string {
  if (typeof first !== 'string') {
    return appendRest(escaper(inspectValue(first, ONE_LINE)), args, 0, escaper);
  }
  const safe = escaper(first);
  if (args.length === 0) return safe;
  // Most format strings need no escaping: then neither do the parts of them.
  const literal = safe === first ? asIs : escaper;

  let out = '';
  let last = 0;
  let next = 0;
  const end = first.length - 1;
  for (let i = first.indexOf('%'); i !== -1 && i < end; i = first.indexOf('%', i + 1)) {
    const verb = first.charCodeAt(++i);
    if (verb === PERCENT) {
      out += literal(first.slice(last, i));
      last = i + 1;
      continue;
    }
    if (next === args.length) continue;
    const text = formatVerb(verb, args[next], escaper);
    if (text === undefined) continue;
    next++;
    if (last !== i - 1) out += literal(first.slice(last, i - 1));
    out += text;
    last = i + 1;
  }
  if (last === 0) return appendRest(safe, args, 0, escaper);
  if (last < first.length) out += literal(first.slice(last));
  return appendRest(out, args, next, escaper);
}

function appendRest(
  head: string,
  args: readonly unknown[],
  from: number,
  escaper: Escaper,
): string {
  let out = head;
  for (let i = from; i < args.length; i++) {
    const value = args[i];
    out += ' ';
    out += escaper(typeof value === 'string' ? value : inspectValue(value, ONE_LINE));
  }
  return out;
}

/** The text for one verb, or undefined when `verb` is not one (the `%` is then kept). */
function formatVerb(verb: number, value: unknown, escaper: Escaper): string | undefined {
  switch (verb) {
    case 115: // s
      return typeof value === 'number' ? numberText(value) : escaper(formatString(value));
    case 100: // d
      return formatNumeric(value, Number);
    case 105: // i
      return formatNumeric(value, Number.parseInt);
    case 102: // f
      return typeof value === 'bigint'
        ? numberText(Number(value))
        : formatNumeric(value, parseFloat);
    case 106: // j
      return escaper(formatJson(value));
    case 111: // o
      return escaper(inspectValue(value, FOR_O));
    case 79: // O
      return escaper(inspectValue(value, ONE_LINE));
    case 99: // c: CSS in browsers, nothing here
      return '';
    default:
      return undefined;
  }
}

function formatString(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      return numberText(value);
    case 'bigint':
      return `${value}n`;
    case 'object':
      if (value === null) return 'null';
      return hasOwnToString(value) ? stringOf(value) : inspectValue(value, FOR_S);
    case 'function':
      return stringOf(value);
    default:
      // undefined, boolean, symbol: String() never throws for these.
      return String(value);
  }
}

function hasOwnToString(value: object): boolean {
  try {
    const method: unknown = (value as { toString?: unknown }).toString;
    return typeof method === 'function' && !BUILT_IN_TO_STRING.has(method);
  } catch {
    return false;
  }
}

function stringOf(value: object): string {
  try {
    return String(value);
  } catch {
    return inspectValue(value, FOR_S);
  }
}

function formatNumeric(value: unknown, parse: (input: string) => number): string {
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'number' && parse === Number) return numberText(value);
  if (typeof value === 'symbol') return 'NaN';
  try {
    return numberText(parse(value as string));
  } catch {
    return 'NaN';
  }
}

function numberText(value: number): string {
  return Object.is(value, -0) ? '-0' : `${value}`;
}

function formatJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'undefined';
  } catch (error) {
    return isCircularError(error) ? '[Circular]' : inspectValue(value, ONE_LINE);
  }
}

function isCircularError(error: unknown): boolean {
  try {
    // V8 (Node.js) and JavaScriptCore (Bun) word it differently.
    return (
      error instanceof TypeError &&
      (error.message.startsWith('Converting circular') || error.message.includes('cyclic'))
    );
  } catch {
    return false;
  }
}

function inspectValue(value: unknown, options: InspectOptions): string {
  try {
    return inspect(value, options);
  } catch {
    return `[unprintable ${typeof value}]`;
  }
}
