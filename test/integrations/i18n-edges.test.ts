import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../src/integrations/i18n/index.js';
import { memoryLogger } from '../app/helpers.js';

// keelson/i18n at its edges: bad options and catalogs named in the error, plural forms told
// apart from nested messages, fallback chains, number verbs and missing keys reported once.

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function directory(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'keelson-i18n-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('i18n options and catalogs', () => {
  it('refuses options and catalogs it cannot use, naming what is wrong', () => {
    const bad: [() => unknown, string][] = [
      [() => i18n({}), 'i18n: give catalogs, a directory of <locale>.json files, or both'],
      [() => i18n({ catalogs: {} }), 'i18n: no catalog found'],
      [
        () => i18n({ catalogs: { en: [] as never } }),
        'i18n: the en catalog should be an object of messages, instead got an array',
      ],
      [
        () => i18n({ catalogs: { en: null as never } }),
        'i18n: the en catalog should be an object of messages, instead got null',
      ],
      [
        () => i18n({ catalogs: { en: { a: { b: 1 as never } } } }),
        'i18n: the en catalog: "a.b" should be a string, plural forms or an object of messages, instead got number',
      ],
      [
        () => i18n({ catalogs: { en: { a: 'x' }, fr: { a: 'y' } }, defaultLocale: 'de' }),
        'i18n: defaultLocale should be one of en, fr, instead got de',
      ],
      [
        () => i18n({ directory: directory({ 'en.json': '{}' }), catalogs: { EN: {} } }),
        'i18n: the locale en comes from both the directory and catalogs',
      ],
    ];
    for (const [make, message] of bad) expect(make).toThrow(message);
  });

  it('reads only <locale>.json files, in locale order, and names a bad one', () => {
    const dir = directory({
      'fr.json': '{"hi":"salut"}',
      'de.json': '{"hi":"hallo"}',
      'notes.txt': 'not a catalog',
      'en.json': '{"hi":"hello"}',
    });
    expect(i18n({ directory: dir }).locales()).toEqual(['en', 'de', 'fr']);
    expect(i18n({ directory: dir, defaultLocale: 'fr' }).locales()).toEqual(['fr', 'de', 'en']);
    const broken = directory({ 'en.json': '{"hi":' });
    expect(() => i18n({ directory: broken })).toThrow(
      new RegExp(`^i18n: ${join(broken, 'en.json')} is not valid JSON: `),
    );
  });

  it('tells plural forms from an object of messages', () => {
    const t = i18n({
      catalogs: {
        en: {
          items: { one: '%d item', other: '%d items' },
          // `other` is there but `label` is no plural category: messages, not forms.
          menu: { other: 'Other', label: 'Menu' },
          // Plural categories whose values are not all strings: an error.
          counts: { zero: 'none', other: 'some' },
        },
      },
    });
    expect(t.t('en', 'items', { count: 1 }, 1)).toBe('1 item');
    expect(t.t('en', 'items', { count: 3 }, 3)).toBe('3 items');
    expect(t.t('en', 'items', { count: 'many' })).toBe('%d items');
    expect(t.t('en', 'menu.label')).toBe('Menu');
    expect(t.t('en', 'menu.other')).toBe('Other');
    expect(t.t('en', 'counts', { count: 0 })).toBe('none');
    expect(() => i18n({ catalogs: { en: { x: { other: 'a', one: 1 as never } } } })).toThrow(
      /"x.one" should be a string/,
    );
  });
});

describe('translating', () => {
  it('walks pt-BR → pt → the default, and prints numbers by their verb', () => {
    const t = i18n({
      catalogs: {
        en: { n: 'd=%d i=%i f=%f', only: 'english' },
        pt: { hi: 'olá' },
        'pt-BR': { bye: 'tchau' },
      },
    });
    expect(t.t('pt-BR', 'bye')).toBe('tchau');
    expect(t.t('pt-BR', 'hi')).toBe('olá');
    expect(t.t('pt-BR', 'only')).toBe('english');
    expect(t.t('not a tag!', 'only')).toBe('english');
    expect(t.t('en', 'n', '04.70', '4.7', '4.7abc')).toBe('d=4.7 i=4 f=4.7');
    // A class instance is a positional argument, not named ones.
    class Box {
      toString() {
        return 'box';
      }
    }
    const boxed = i18n({ catalogs: { en: { m: '%s {x}' } } });
    expect(boxed.t('en', 'm', null)).toBe('null {x}');
    expect(boxed.t('en', 'm', new Box(), Object.assign(Object.create(null), { x: 1 }))).toBe(
      'box 1',
    );
  });

  it('answers a missing key with the key and reports each key once', () => {
    const { logger, lines } = memoryLogger();
    const t = i18n({ catalogs: { en: { a: 'A' } }, logger });
    expect(t.t('fr', 'nope')).toBe('nope');
    expect(t.t('en', 'nope')).toBe('nope');
    expect(t.t('en', 'other.key')).toBe('other.key');
    const warned = lines.filter((l) => l.includes('missing key'));
    expect(warned).toHaveLength(2);
    expect(warned[0]).toContain(
      'i18n: missing key \\"nope\\" (asked for fr); answering with the key',
    );
  });
});
