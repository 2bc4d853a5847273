import { describe, expect, it } from 'vitest';
import {
  checkDeprecation,
  deprecationHeaders,
  effectiveDeprecation,
} from '../../src/routing/deprecation.js';
import type { Scope } from '../../src/routing/table.js';

// The `deprecated` option as a route or a group gives it: what is refused, what each header
// holds, and which of a route's and its groups' values wins.

const SINCE = new Date('2026-01-01T00:00:00Z');
const SUNSET = new Date('2027-06-30T23:59:59Z');
const where = 'route GET /x';

describe('checkDeprecation', () => {
  it('takes undefined, booleans and an object of valid fields as they are', () => {
    expect(checkDeprecation(undefined, where)).toBeUndefined();
    expect(checkDeprecation(true, where)).toBe(true);
    expect(checkDeprecation(false, where)).toBe(false);
    const d = { since: SINCE, sunset: SINCE, link: '/v2', info: 'https://e.com/a?b=c' };
    expect(checkDeprecation(d, where)).toBe(d);
  });

  it('refuses null, an array and other values, naming where', () => {
    const message = `${where}: deprecated must be true, false or { since?, sunset?, link?, info? }`;
    for (const bad of [null, [], 'yes', 1]) {
      expect(() => checkDeprecation(bad, where)).toThrow(message);
    }
  });

  it('refuses a since or sunset that is no valid Date', () => {
    expect(() => checkDeprecation({ since: '2026-01-01' }, where)).toThrow(
      `${where}: deprecated.since must be a valid Date`,
    );
    expect(() => checkDeprecation({ since: new Date('nope') }, where)).toThrow(
      `${where}: deprecated.since must be a valid Date`,
    );
  });

  it('refuses a link or info that is empty, not a string, or holds a space or <>', () => {
    for (const bad of ['', 7, 'a\tb', '<a>', 'a>b']) {
      expect(() => checkDeprecation({ info: bad }, where)).toThrow(
        `${where}: deprecated.info must be a URL without spaces or <>`,
      );
      expect(() => checkDeprecation({ link: bad }, where)).toThrow(
        `${where}: deprecated.link must be a URL without spaces or <>`,
      );
    }
  });
});

describe('deprecationHeaders', () => {
  it('keeps a given since even when the sunset has passed, and links only what is given', () => {
    const later = new Date('2030-01-01T00:00:00Z');
    expect(deprecationHeaders({ since: SINCE, sunset: SUNSET }, later)).toEqual({
      deprecation: '@1767225600',
      sunset: 'Wed, 30 Jun 2027 23:59:59 GMT',
    });
    expect(deprecationHeaders({ info: '/notes' }, SINCE)).toEqual({
      deprecation: '@1767225600',
      link: '</notes>; rel="deprecation"',
    });
    expect(deprecationHeaders({ link: '/v2' }, SINCE).link).toBe('</v2>; rel="successor-version"');
  });

  it('dates at now when the sunset is later than now', () => {
    expect(deprecationHeaders({ sunset: SUNSET }, SINCE).deprecation).toBe('@1767225600');
  });
});

describe('effectiveDeprecation', () => {
  const scope = (deprecated: Scope['deprecated'], parent?: Scope) =>
    ({ deprecated, parent }) as unknown as Scope;

  it("takes the route's own value first, then the innermost group that says", () => {
    const outer = scope({ info: '/outer' });
    expect(effectiveDeprecation(undefined, scope(undefined, outer))).toEqual({ info: '/outer' });
    expect(effectiveDeprecation(undefined, scope(false, outer))).toBeUndefined();
    expect(effectiveDeprecation(true, scope(false, outer))).toEqual({});
    expect(effectiveDeprecation(false, outer)).toBeUndefined();
    expect(effectiveDeprecation(undefined, scope(undefined))).toBeUndefined();
  });
});
