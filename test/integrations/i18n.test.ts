import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { get } from '../../src/index.js';
import { i18n } from '../../src/integrations/i18n/index.js';
import { memoryLogger, testApp } from '../app/helpers.js';

const LOCALES = new URL('./fixtures/locales/', import.meta.url);

function translatedApp() {
  const { logger, lines } = memoryLogger();
  const translator = i18n({ directory: LOCALES, logger });
  const { app } = testApp();
  app.setTranslator(translator);
  app.addRoutes(
    get('/t/:key', { query: z.object({ count: z.coerce.number().optional() }) }, (c) => ({
      lang: c.lang,
      text:
        c.query.count === undefined
          ? c.t(c.params.key, { name: 'Ada' }, 'Ada', 3)
          : c.t(c.params.key, { count: c.query.count }),
    })),
  );
  const ask = async (key: string, lang?: string, count?: number) => {
    const res = await app.inject({
      url: `/t/${key}${count === undefined ? '' : `?count=${count}`}`,
      headers: lang ? { 'accept-language': lang } : {},
    });
    return res.json() as { lang: string; text: string };
  };
  return { ask, lines, translator };
}

describe('keelson/i18n', () => {
  it('reads a folder of <locale>.json catalogs and lists the default locale first', () => {
    const { translator } = translatedApp();
    expect(translator.locales()).toEqual(['en', 'fr', 'pl', 'pt', 'pt-BR']);
    expect(i18n({ directory: LOCALES, defaultLocale: 'pt' }).locales()[0]).toBe('pt');
  });

  it('fills {name} placeholders and printf arguments in the negotiated language', async () => {
    const { ask } = translatedApp();
    expect(await ask('greeting', 'fr-CH, fr;q=0.9, en;q=0.8')).toEqual({
      lang: 'fr',
      text: 'Bonjour, Ada !',
    });
    expect(await ask('welcome', 'de, en;q=0.5')).toEqual({
      lang: 'en',
      text: 'Welcome back, Ada. You have 3 new messages.',
    });
  });

  it('picks plural forms with Intl.PluralRules from the count argument', async () => {
    const { ask } = translatedApp();
    const texts = async (lang: string, counts: number[]) =>
      Promise.all(counts.map(async (n) => (await ask('cart.items', lang, n)).text));
    expect(await texts('en', [0, 1, 2])).toEqual([
      'Your cart is empty',
      '1 item in your cart',
      '2 items in your cart',
    ]);
    expect(await texts('fr', [0, 1, 2])).toEqual(['0 article', '1 article', '2 articles']);
    expect(await texts('pl', [1, 3, 5, 22, 1.5])).toEqual([
      '1 produkt',
      '3 produkty',
      '5 produktów',
      '22 produkty',
      '1.5 produktu',
    ]);
  });

  it('falls back from region to language to the default locale', async () => {
    const { ask } = translatedApp();
    expect(await ask('greeting', 'pt-BR')).toEqual({ lang: 'pt-BR', text: 'Oi, Ada!' });
    expect(await ask('welcome', 'pt-BR')).toEqual({
      lang: 'pt-BR',
      text: 'Bem-vindo de volta, Ada. Você tem 3 mensagens novas.',
    });
    expect((await ask('cart.items', 'pt-BR', 2)).text).toBe('2 itens no carrinho');
    expect((await ask('only_in_english', 'pt-BR')).text).toBe('Only in English');
  });

  it('answers a missing key with the key and warns about it once', async () => {
    const { ask, lines } = translatedApp();
    expect((await ask('no.such.key', 'fr')).text).toBe('no.such.key');
    expect((await ask('no.such.key', 'pt-BR')).text).toBe('no.such.key');
    const warnings = lines
      .map((l) => JSON.parse(l) as { level: string; message: string })
      .filter((e) => e.level === 'warn');
    expect(warnings.map((w) => w.message)).toEqual([
      'i18n: missing key "no.such.key" (asked for fr); answering with the key',
    ]);
  });

  it('used as a module, sets itself as the translator and warns on the app logger', async () => {
    const { app, lines } = testApp();
    app.use(i18n({ catalogs: { en: { hi: 'Hi' } } }));
    app.addRoutes(get('/hi', (c) => ({ hi: c.t('hi'), gone: c.t('gone') })));
    expect((await app.inject('/hi')).json()).toEqual({ hi: 'Hi', gone: 'gone' });
    const warn = lines.map((l) => JSON.parse(l) as { level: string; message: string });
    expect(warn.filter((e) => e.level === 'warn').map((e) => e.message)).toEqual([
      'i18n: missing key "gone" (asked for en); answering with the key',
    ]);
  });

  it('takes catalogs as objects, with region tags in any case', () => {
    const tr = i18n({
      catalogs: {
        en: { hi: 'Hi %s' },
        'es-mx': { hi: '¿Qué onda, %s?' },
        es: { hi: 'Hola %s', bye: 'Adiós' },
      },
    });
    expect(tr.locales()).toEqual(['en', 'es-MX', 'es']);
    expect(tr.t('es-MX', 'hi', 'Ana')).toBe('¿Qué onda, Ana?');
    expect(tr.t('es-MX', 'bye')).toBe('Adiós');
    expect(tr.t('not a locale!', 'hi', 'Ana')).toBe('Hi Ana');
  });

  it('leaves placeholders and verbs without a value as they are, and never rescans a value', () => {
    const tr = i18n({ catalogs: { en: { m: '{a} %s {b} %d 100%%' } } });
    expect(tr.t('en', 'm', { a: '{b}' }, '%d')).toBe('{b} %d {b} %d 100%');
  });

  it('formats a circular or BigInt %j argument like the logger does, instead of answering 500', async () => {
    const { app } = testApp();
    app.setTranslator(i18n({ catalogs: { en: { m: 'data: %j' } } }));
    // Plain objects fill {name} placeholders; an array is a positional argument.
    const circular: unknown[] = [1];
    circular.push(circular);
    app.addRoutes(
      get('/circular', (c) => ({ text: c.t('m', circular) })),
      get('/bigint', (c) => ({ text: c.t('m', 10n) })),
    );
    const a = await app.inject('/circular');
    expect(a.statusCode).toBe(200);
    expect(a.json()).toEqual({ text: 'data: [Circular]' });
    const b = await app.inject('/bigint');
    expect(b.statusCode).toBe(200);
    expect(b.json()).toEqual({ text: 'data: 10n' });
  });

  describe('rejects bad catalogs, naming what is wrong', () => {
    const dir = mkdtempSync(join(tmpdir(), 'keelson-i18n-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('a message that is neither a string nor plural forms', () => {
      expect(() => i18n({ catalogs: { en: { a: { b: 3 } } } as never })).toThrow(
        'i18n: the en catalog: "a.b" should be a string, plural forms or an object of messages, instead got number',
      );
    });

    it('a default locale with no catalog', () => {
      expect(() => i18n({ catalogs: { en: {} }, defaultLocale: 'de' })).toThrow(
        'i18n: defaultLocale should be one of en, instead got de',
      );
    });

    it('a catalog key that is not a locale tag', () => {
      expect(() => i18n({ catalogs: { 'not a tag': {} } })).toThrow(
        'i18n: catalogs: "not a tag" is not a locale tag such as en or pt-BR',
      );
    });

    it('a file named after no locale', () => {
      writeFileSync(join(dir, 'english!.json'), '{}');
      expect(() => i18n({ directory: dir })).toThrow(
        /english!\.json: the file name should be <locale>\.json/,
      );
      rmSync(join(dir, 'english!.json'));
    });

    it('a file that is not JSON', () => {
      writeFileSync(join(dir, 'en.json'), '{ "a": ');
      expect(() => i18n({ directory: dir })).toThrow(/en\.json is not valid JSON/);
    });
  });
});
