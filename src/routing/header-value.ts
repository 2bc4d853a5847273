/**
 * Response headers a handler sets: checked when set, so a bad one is an error at the line that
 * set it, not a 500 after the handler (Node refuses it only when the head is written).
 * @module
 */

/** What `c.header()` takes as a value. */
export type HeaderValue = string | number | readonly string[];

// RFC 9110 token: the characters a header name may have.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// What Node writes in a value: tab, visible ASCII, space and obs-text (U+0080–U+00FF).
const BAD_CHAR = /[^\t\x20-\x7e\x80-\xff]/;

/**
 * Throws a TypeError naming the header when `name` is no HTTP token or `value` has a character
 * a header cannot carry (CR, LF, another control character, anything past U+00FF).
 */
export function checkHeader(name: string, value: HeaderValue): void {
  if (typeof name !== 'string' || !TOKEN.test(name)) {
    throw new TypeError(
      `c.header(${JSON.stringify(name)}): a header name is an HTTP token ` +
        "(letters, digits and !#$%&'*+-.^_`|~)",
    );
  }
  if (typeof value === 'string') checkValue(name, value);
  else if (Array.isArray(value)) for (const v of value) checkValue(name, String(v));
  else if (typeof value !== 'number') {
    throw new TypeError(
      `c.header("${name}"): the value must be a string, a number or an array of strings, got ${typeof value}`,
    );
  }
}

function checkValue(name: string, value: string): void {
  const bad = BAD_CHAR.exec(value);
  if (bad === null) return;
  const code = bad[0].codePointAt(0)!;
  const hint =
    name.toLowerCase() === 'content-disposition'
      ? 'for a download name use c.attachment(filename)'
      : 'percent-encode it (encodeURIComponent) or send it in the body';
  throw new TypeError(
    `c.header("${name}"): the value has ${describeChar(code)} at index ${bad.index}, ` +
      `which a header cannot carry; ${hint}`,
  );
}

function describeChar(code: number): string {
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  if (code === 0x0d) return `a carriage return (${hex})`;
  if (code === 0x0a) return `a line feed (${hex})`;
  if (code < 0x20 || code === 0x7f) return `the control character ${hex}`;
  return `"${String.fromCodePoint(code)}" (${hex}, past Latin-1)`;
}

// RFC 8187 attr-char: what `filename*` keeps as is; encodeURIComponent also keeps '()*!~.
const NOT_ATTR_CHAR = /['()*]/g;
// The ASCII fallback keeps visible ASCII and space; `"` and `\` are escaped as quoted-pairs.
const NOT_PLAIN = /[^\x20-\x7e]/gu;
// In unicode mode a pair is one code point: this matches only a half, which UTF-8 cannot encode.
const LONE_SURROGATE = /\p{Cs}/gu;

/**
 * The `Content-Disposition` of a download (RFC 6266): `attachment; filename="…"`, an ASCII name
 * every client reads, and for a name with anything else also `filename*=UTF-8''…`, the exact
 * name that current clients prefer.
 * @example contentDisposition('résumé.pdf') // attachment; filename="r_sum_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf
 */
export function contentDisposition(filename?: string): string {
  if (filename === undefined || filename === '') return 'attachment';
  if (typeof filename !== 'string') {
    throw new TypeError(`c.attachment(): the file name must be a string, got ${typeof filename}`);
  }
  const ascii = filename.replace(NOT_PLAIN, '_');
  const quoted = `attachment; filename="${ascii.replace(/["\\]/g, '\\$&')}"`;
  if (ascii === filename) return quoted;
  const encoded = encodeURIComponent(filename.replace(LONE_SURROGATE, '\uFFFD')).replace(
    NOT_ATTR_CHAR,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${quoted}; filename*=UTF-8''${encoded}`;
}
