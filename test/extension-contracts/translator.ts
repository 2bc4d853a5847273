import { describe, expect, it } from 'vitest';
import type { Translator } from '../../src/extend/index.js';
import { get } from '../../src/index.js';
import { testApp } from '../app/helpers.js';

/** What every Translator must do, run against one implementation. */
export function translatorContract(name: string, make: () => Translator): void {
  describe(`Translator contract: ${name}`, () => {
    it('lists at least one locale, each once', () => {
      const locales = make().locales();
      expect(locales.length).toBeGreaterThan(0);
      expect(new Set(locales).size).toBe(locales.length);
    });

    it('answers a key it does not have with the key, in any locale', () => {
      const tr = make();
      for (const locale of [...tr.locales(), 'xx-YY', '']) {
        expect(tr.t(locale, 'contract.no.such.key', 1, { a: 2 })).toBe('contract.no.such.key');
      }
    });

    it("gives c.lang one of its locales whatever the request's Accept-Language", async () => {
      const { app } = testApp();
      const tr = make();
      app.setTranslator(tr);
      app.addRoutes(get('/lang', (c) => c.lang));
      for (const header of ['', '*', 'zz', `${tr.locales().at(-1)};q=0.5, zz`, 'en;q=0']) {
        const res = await app.inject({ url: '/lang', headers: { 'accept-language': header } });
        expect(tr.locales()).toContain(res.json());
      }
    });
  });
}
