import { formatMessage } from '../../logger/format.js';

/** `{name}` placeholders and the printf verbs `%s %d %i %f %j %%`, in one pass. */
const TOKEN = /\{(\w+)\}|%([sdifj%])/g;

/**
 * Fills `template`: `{name}` from `named`, printf verbs from `positional` in order. A placeholder
 * or verb with no value is left as it is; values are never scanned again, so a value holding
 * `{x}` or `%s` stays literal.
 * @example interpolate('{n} has %d items', { n: 'Ada' }, [3]) // 'Ada has 3 items'
 */
export function interpolate(
  template: string,
  named: Readonly<Record<string, unknown>>,
  positional: readonly unknown[],
): string {
  let next = 0;
  return template.replace(TOKEN, (token, name: string | undefined, verb: string | undefined) => {
    if (name !== undefined) return Object.hasOwn(named, name) ? String(named[name]) : token;
    if (verb === '%') return '%';
    if (next >= positional.length) return token;
    const value = positional[next++];
    switch (verb) {
      case 'd':
        return String(Number(value));
      case 'i':
        return String(Math.trunc(Number(value)));
      case 'f':
        return String(Number.parseFloat(String(value)));
      case 'j':
        // Like the logger: a circular value prints [Circular], a BigInt is inspected; never throws.
        return formatMessage('%j', [value]);
      default:
        return String(value);
    }
  });
}
