/** An HTTP auth-scheme word: a token (RFC 9110), so it can stand in a header as is. */
const SCHEME = /^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*$/;

/** Throws a TypeError naming `guard` unless `scheme` is a valid auth-scheme word. */
export function checkScheme(scheme: string, guard: string): void {
  if (typeof scheme !== 'string' || !SCHEME.test(scheme)) {
    throw new TypeError(
      `${guard}(): scheme must be one word such as 'Bearer', got ${JSON.stringify(scheme)}`,
    );
  }
}
