/**
 * Makes `text` safe to print on one line of a text log: control characters (C0, DEL, C1) and
 * the Unicode line and paragraph separators become visible escapes (`\n`, `\r`, `\t`,
 * `\u001b`), so a message can never start a line that looks like a second entry.
 * Returns `text` itself, without copying, when there is nothing to escape.
 * @example escapeText('a\nb') // 'a\\nb'
 */
export function escapeText(text: string): string {
  return UNSAFE.test(text) ? escapeFrom(text) : text;
}

// A regular expression scans a string faster than a charCodeAt loop; the loop in escapeFrom
// runs only for the rare text that needs it.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

function isUnsafe(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;
}

function escapeFrom(text: string): string {
  let out = '';
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!isUnsafe(code)) continue;
    out += text.slice(last, i) + escapeCode(code);
    last = i + 1;
  }
  return out + text.slice(last);
}

function escapeCode(code: number): string {
  switch (code) {
    case 0x0a:
      return '\\n';
    case 0x0d:
      return '\\r';
    case 0x09:
      return '\\t';
    default:
      return `\\u${code.toString(16).padStart(4, '0')}`;
  }
}

const LINE_BREAK = /\r?\n/;
const INDENT = '    ';

/**
 * Like `escapeText`, but a line break stays a line break and the next line is indented, so a
 * stack prints one frame a line and no continuation line can pass for an entry.
 * @example escapeMultiline('Error: x\n    at f (a.ts:1:1)') // unchanged
 */
export function escapeMultiline(text: string): string {
  if (!UNSAFE.test(text)) return text;
  const lines = text.split(LINE_BREAK);
  let out = escapeText(lines[0]!);
  for (let i = 1; i < lines.length; i++) {
    const line = escapeText(lines[i]!);
    out += line.startsWith(' ') ? `\n${line}` : `\n${INDENT}${line}`;
  }
  return out;
}
