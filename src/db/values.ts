/**
 * One result shape on both engines: each engine hands these parsers the text PostgreSQL sends,
 * so a query returns the same JavaScript values on node-postgres and on PGlite.
 * @module
 */

/** How `int8` (`bigint`, `count(*)`, `bigserial`) values are returned. */
export type Int8Mode = 'string' | 'number' | 'bigint';

// PostgreSQL type OIDs (pg_type.oid), stable across versions.
const OID = {
  bytea: 17,
  int8: 20,
  int8Array: 1016,
  date: 1082,
  dateArray: 1182,
  timestamp: 1114,
  timestampArray: 1115,
  timestamptz: 1184,
  timestamptzArray: 1185,
  interval: 1186,
  numeric: 1700,
} as const;

/** The parsers Keelson sets on both engines, by type OID; other types keep the engines' own. */
export function valueParsers(int8: Int8Mode): Record<number, (text: string) => unknown> {
  const parseInt8 = int8Parser(int8);
  return {
    [OID.bytea]: parseBytea,
    [OID.int8]: parseInt8,
    [OID.int8Array]: (text) => parseArray(text, parseInt8),
    [OID.date]: identity,
    [OID.dateArray]: (text) => parseArray(text, identity),
    [OID.timestamp]: parseTimestamp,
    [OID.timestampArray]: (text) => parseArray(text, parseTimestamp),
    [OID.timestamptz]: parseTimestamp,
    [OID.timestamptzArray]: (text) => parseArray(text, parseTimestamp),
    [OID.interval]: identity,
    [OID.numeric]: identity,
  };
}

function identity(text: string): string {
  return text;
}

function int8Parser(mode: Int8Mode): (text: string) => unknown {
  if (mode === 'string') return identity;
  if (mode === 'bigint') return (text) => BigInt(text);
  return function int8AsNumber(text) {
    const n = Number(text);
    if (!Number.isSafeInteger(n)) {
      throw new RangeError(
        `the int8 value ${text} is beyond Number.MAX_SAFE_INTEGER: use int8: 'string' or 'bigint'`,
      );
    }
    return n;
  };
}

/** `\x0a0b` (PostgreSQL's hex output) as a Buffer. */
function parseBytea(text: string): Buffer {
  return Buffer.from(text.startsWith('\\x') ? text.slice(2) : text, 'hex');
}

/**
 * `timestamp` and `timestamptz` as a Date: a value with an offset keeps it, one without
 * (`timestamp`) is read as UTC. `infinity` and `-infinity` stay strings.
 */
function parseTimestamp(text: string): Date | string {
  if (text === 'infinity' || text === '-infinity') return text;
  const bc = text.endsWith(' BC');
  let iso = (bc ? text.slice(0, -3) : text).replace(' ', 'T');
  const offset = /([+-])(\d\d)(?::?(\d\d))?(?::?(\d\d))?$/.exec(iso.slice(19));
  if (offset) {
    const [whole, sign, hh, mm = '00'] = offset;
    iso = `${iso.slice(0, iso.length - whole.length)}${sign}${hh}:${mm}`;
  } else {
    iso += 'Z';
  }
  const date = new Date(iso);
  if (bc) date.setUTCFullYear(1 - date.getUTCFullYear());
  return date;
}

/**
 * A PostgreSQL array literal (`{1,2,NULL}`, `{{1,2},{3,4}}`, `{"a b",c}`) as nested arrays,
 * each element read by `element`; `NULL` is null.
 */
export function parseArray(text: string, element: (text: string) => unknown): unknown[] {
  let i = 0;
  const read = (): unknown[] => {
    const out: unknown[] = [];
    i++; // the opening brace
    while (i < text.length && text[i] !== '}') {
      if (text[i] === '{') out.push(read());
      else if (text[i] === '"') {
        let value = '';
        for (i++; text[i] !== '"'; i++) value += text[i] === '\\' ? text[++i] : text[i];
        i++;
        out.push(element(value));
      } else {
        const end = text.slice(i).search(/[,}]/);
        const raw = text.slice(i, i + end);
        i += end;
        out.push(raw === 'NULL' ? null : element(raw));
      }
      if (text[i] === ',') i++;
    }
    i++; // the closing brace
    return out;
  };
  // A literal may start with dimensions: `[0:1]={1,2}`.
  i = text.indexOf('{');
  return i < 0 ? [] : read();
}
