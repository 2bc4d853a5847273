import { describe, expect, it } from 'vitest';
import { negotiateLanguage } from '../../src/extend/index.js';

describe('negotiateLanguage', () => {
  it.each([
    ['*, en;q=0', ['en', 'fr'], 'fr'],
    ['en;q=0, *', ['en', 'fr'], 'fr'],
    ['en;q=0', ['en', 'fr'], 'fr'],
    ['*;q=0.5, en;q=0', ['en-GB', 'pt'], 'pt'],
    ['fr;q=0, fr-CA', ['fr', 'fr-CA', 'en'], 'fr-CA'],
    ['fr;q=0, fr-CA', ['fr', 'en'], 'en'],
    ['*;q=0, pt', ['en', 'pt'], 'pt'],
    ['*;q=0.9, fr;q=0.1', ['fr', 'en'], 'en'],
    ['*', ['pt', 'en'], 'pt'],
    ['de, *;q=0.5', ['en', 'de'], 'de'],
    ['pt-BR, en;q=0.5', ['en', 'pt'], 'pt'],
    // q=0 on a region names no other locale of the language: it is no match for `en`.
    ['en-GB;q=0', ['fr', 'en'], 'fr'],
    // `*` covering only excluded locales gives nothing, rather than no locale.
    ['*, en;q=0', ['en'], 'en'],
    ['en-gb', ['en', 'en-GB'], 'en-GB'],
    // A malformed tag is skipped, even when a locale is spelled the same way.
    ['en_US', ['fr', 'en_US'], 'fr'],
    // Only a parameter named q, holding nothing but a number, sets the quality.
    ['en;xq=0, fr;q=0.5', ['fr', 'en'], 'en'],
    ['en;qx=0, fr;q=0.5', ['fr', 'en'], 'en'],
    ['en;q=0x, fr;q=0.5', ['fr', 'en'], 'en'],
    ['en; q = 0 , fr;q=0.5', ['en', 'fr'], 'fr'],
    ['en;level=1', ['fr', 'en'], 'en'],
    // A quality over 1 or not a number drops its entry.
    ['en;q=2, fr;q=0.5', ['fr', 'en'], 'fr'],
    ['en;q=., fr;q=0.5', ['fr', 'en'], 'fr'],
    ['en;q=1.0.1, fr;q=0.5', ['fr', 'en'], 'fr'],
    // The most specific entry decides, whichever comes first; for the same tag, the best q.
    ['en, en-gb;q=0', ['en-GB', 'fr'], 'fr'],
    ['en;q=0.5, en;q=0', ['fr', 'en'], 'en'],
    // `*;q=0` excludes every locale no entry names.
    ['*;q=0, en-gb;q=0.5', ['fr', 'en'], 'fr'],
  ])('answers %j among %j with %s', (header, locales, expected) => {
    expect(negotiateLanguage(header, locales)).toBe(expected);
  });

  it('falls back to the first locale when everything is excluded or nothing matches', () => {
    expect(negotiateLanguage('en;q=0, fr;q=0', ['en', 'fr'])).toBe('en');
    expect(negotiateLanguage('de', ['en', 'fr'])).toBe('en');
    expect(negotiateLanguage(undefined, ['fr'])).toBe('fr');
    expect(negotiateLanguage('fr', [])).toBe('en');
  });
});
