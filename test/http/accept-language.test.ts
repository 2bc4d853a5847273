import { describe, expect, it } from 'vitest';
import { negotiateLanguage } from '../../src/index.js';

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
