/**
 * Secrets out of what the dev panel shows (the config, the log lines): by the key that holds
 * them, and by the shape of the value wherever it is (a PEM key, credentials in a URL, an
 * Authorization value, a JWT, a `password=` pair, a `"password": "…"` JSON field).
 * @module
 */

/** Parts of a key whose value the panel never shows (`dbPassword`, `API_KEY`, `clientSecret`). */
const SECRET_PART = /token|secret|passw|passphrase|credential|private|key/i;

/** Whole words of a key whose value the panel never shows (`dbPass`, `pwd`, `sentry_dsn`). */
const SECRET_WORDS: ReadonlySet<string> = new Set([
  'pass',
  'pwd',
  'pw',
  'dsn',
  'auth',
  'authorization',
  'cookie',
  'signature',
  'salt',
]);

const MASK = '••••••';

/** True when the key's value is masked whatever it is. */
export function isSecretKey(key: string): boolean {
  if (SECRET_PART.test(key)) return true;
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return words.some((w) => SECRET_WORDS.has(w));
}

/**
 * A JSON-safe copy of `value` with the value of every secret key masked, at any depth, and the
 * secret-shaped parts of every string masked; functions and cycles are left out.
 */
export function maskSecrets(value: unknown, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return maskValue(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[cycle]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v, seen));
  if (value instanceof Date) return value.toISOString();
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === 'function') continue;
    out[key] = isSecretKey(key) && v !== undefined && v !== '' ? MASK : maskSecrets(v, seen);
  }
  return out;
}

/** `-----BEGIN <label>-----` up to its END line (or the end of the text). */
const PEM = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?(?:-----END \1-----|$)/g;
/** `scheme://userinfo@`: `user:password@` or a key alone (a Sentry DSN). */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]{0,31}:\/\/)([^\s/?#@]+)@/gi;
/** An Authorization value: the scheme word, then a credential with a digit or a symbol in it. */
const AUTH_VALUE =
  /\b(Basic|Bearer|Digest|Token|ApiKey)(\s+)(?=[A-Za-z0-9._~+/=-]{8,})(?=\S*[0-9._~+/=-])[A-Za-z0-9._~+/=-]+/gi;
/** A JSON Web Token. */
const JWT = /\beyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*/g;
/** `password=…` in a query, a libpq or ADO connection string: the value, quoted or not. */
const SECRET_PAIR =
  /([\w.-]{0,40}(?:token|secret|passw|pwd|passphrase|api[_-]?key|signature|credential)[\w.-]{0,40}\s*=\s*)("[^"]*"|'[^']*'|[^\s;&,#"']+)/gi;

/** `"password": "…"` in JSON text (a log line): the string value of a secret-named field. */
const SECRET_JSON_FIELD =
  /("[\w.-]{0,40}(?:token|secret|passw|pwd|passphrase|api[_-]?key|signature|credential|authorization|cookie)[\w.-]{0,40}"\s*:\s*)"(?:[^"\\]|\\.)*"/gi;

/** `text` with every secret-shaped part masked; each pattern runs only where its anchor is. */
export function maskValue(text: string): string {
  let out = text;
  if (out.includes('-----BEGIN')) {
    out = out.replace(PEM, (block, label: string) =>
      /CERTIFICATE|PUBLIC KEY/.test(label)
        ? block
        : `-----BEGIN ${label}-----${MASK}-----END ${label}-----`,
    );
  }
  if (out.includes('://')) {
    out = out.replace(URL_USERINFO, (_m, scheme: string, info: string) => {
      const colon = info.indexOf(':');
      return colon === -1 ? `${scheme}${MASK}@` : `${scheme}${info.slice(0, colon)}:${MASK}@`;
    });
  }
  if (out.includes('eyJ')) out = out.replace(JWT, MASK);
  if (/Basic|Bearer|Digest|Token|ApiKey/i.test(out)) out = out.replace(AUTH_VALUE, `$1$2${MASK}`);
  if (out.includes('=')) out = out.replace(SECRET_PAIR, `$1${MASK}`);
  if (out.includes('":')) out = out.replace(SECRET_JSON_FIELD, `$1"${MASK}"`);
  return out;
}
