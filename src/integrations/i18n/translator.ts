import type { App, Module } from '../../app.js';
import type { Translator } from '../../contracts.js';
import type { Logger } from '../../logger/index.js';
import { stdoutLogger } from '../../logger/logger.js';
import {
  type Catalog,
  canonicalLocale,
  flattenCatalog,
  type Message,
  readCatalogDirectory,
} from './catalog.js';
import { interpolate } from './interpolate.js';

/** Options of `i18n()`: catalogs from a folder, from objects, or both. */
export interface I18nOptions {
  /** A folder of `<locale>.json` catalogs (`en.json`, `pt-BR.json`). */
  directory?: string | URL;
  /** Catalogs by locale. A locale may not come from both `directory` and `catalogs`. */
  catalogs?: Record<string, Catalog>;
  /** The locale of last resort, listed first by `locales()`. @default 'en' if present, else the first */
  defaultLocale?: string;
  /**
   * Where a missing key is reported, once per key, at warn.
   * @default the app's logger when used as a module (`app.use`), else one for stdout in the
   * format of the app's (see `stdoutLogger`)
   */
  logger?: Logger;
}

// Missing keys come from code, not from requests; the cap only guards against a runaway caller.
const MAX_REPORTED = 10_000;

/**
 * A Translator over JSON catalogs: `{name}` placeholders and printf verbs, plural forms chosen
 * by `Intl.PluralRules` from a `count` argument, and a fallback chain from region to language
 * to the default locale (`pt-BR` → `pt` → `en`). A key found nowhere is reported once and
 * answered with the key itself.
 * @example
 * // en.json: { "cart": { "items": { "one": "{count} item", "other": "{count} items" } } }
 * const tr = i18n({ directory: new URL('./locales', import.meta.url) });
 * tr.t('en', 'cart.items', { count: 3 }); // '3 items'
 */
export class JsonTranslator implements Translator, Module {
  readonly #messages = new Map<string, Map<string, Message>>();
  readonly #locales: readonly string[];
  readonly #default: string;
  #logger: Logger | undefined;
  readonly #chains = new Map<string, readonly string[]>();
  readonly #plurals = new Map<string, Intl.PluralRules>();
  readonly #reported = new Set<string>();

  /** Prefer `i18n(options)`. Reads and checks every catalog now; throws naming a bad one. */
  constructor({ directory, catalogs, defaultLocale, logger }: I18nOptions) {
    if (directory === undefined && catalogs === undefined) {
      throw new TypeError('i18n: give catalogs, a directory of <locale>.json files, or both');
    }
    const sources = directory === undefined ? new Map() : readCatalogDirectory(directory);
    for (const [tag, catalog] of Object.entries(catalogs ?? {})) {
      const locale = withContext('catalogs', () => canonicalLocale(tag));
      if (sources.has(locale)) {
        throw new Error(`i18n: the locale ${locale} comes from both the directory and catalogs`);
      }
      sources.set(locale, catalog);
    }
    for (const [locale, catalog] of sources) {
      this.#messages.set(locale, flattenCatalog(catalog, `the ${locale} catalog`));
    }
    const all = [...this.#messages.keys()];
    if (all.length === 0) throw new Error('i18n: no catalog found');
    const wanted =
      defaultLocale === undefined
        ? undefined
        : withContext('defaultLocale', () => canonicalLocale(defaultLocale));
    if (wanted !== undefined && !this.#messages.has(wanted)) {
      throw new RangeError(
        `i18n: defaultLocale should be one of ${all.join(', ')}, instead got ${defaultLocale}`,
      );
    }
    this.#default = wanted ?? (this.#messages.has('en') ? 'en' : all[0]!);
    this.#locales = Object.freeze([this.#default, ...all.filter((l) => l !== this.#default)]);
    this.#logger = logger;
  }

  /** Sets this translator as the app's, reporting missing keys to the app's logger. */
  register(app: App): void {
    this.#logger ??= app.logger;
    app.setTranslator(this);
  }

  /** The locales of the catalogs, the default first. */
  locales(): readonly string[] {
    return this.#locales;
  }

  /**
   * The message `key` in `locale` (or the first locale of its fallback chain that has it).
   * Object arguments fill `{name}` placeholders and give `count` for plural forms; the others
   * fill `%s %d %i %f %j` in order.
   */
  t(locale: string, key: string, ...args: unknown[]): string {
    for (const l of this.#chain(locale)) {
      const message = this.#messages.get(l)!.get(key);
      if (message === undefined) continue;
      const named: Record<string, unknown> = {};
      const positional: unknown[] = [];
      for (const a of args) {
        if (isPlainObject(a)) Object.assign(named, a);
        else positional.push(a);
      }
      const template =
        typeof message === 'string' ? message : this.#plural(l, message, named.count);
      return interpolate(template, named, positional);
    }
    this.#reportMissing(locale, key);
    return key;
  }

  #plural(locale: string, forms: Exclude<Message, string>, count: unknown): string {
    if (typeof count !== 'number') return forms.other;
    if (count === 0 && forms.zero !== undefined) return forms.zero;
    let rules = this.#plurals.get(locale);
    if (!rules) {
      rules = new Intl.PluralRules(locale);
      this.#plurals.set(locale, rules);
    }
    return forms[rules.select(count)] ?? forms.other;
  }

  /** `pt-BR` → [`pt-BR`, `pt`, default], keeping only locales that have a catalog. */
  #chain(locale: string): readonly string[] {
    const cached = this.#chains.get(locale);
    if (cached) return cached;
    const chain: string[] = [];
    let tag: string | undefined;
    try {
      tag = canonicalLocale(locale);
    } catch {
      tag = undefined;
    }
    while (tag) {
      if (this.#messages.has(tag)) chain.push(tag);
      const dash = tag.lastIndexOf('-');
      tag = dash === -1 ? undefined : tag.slice(0, dash);
    }
    if (!chain.includes(this.#default)) chain.push(this.#default);
    if (this.#chains.size < 1000) this.#chains.set(locale, chain);
    return chain;
  }

  #reportMissing(locale: string, key: string): void {
    if (this.#reported.has(key) || this.#reported.size >= MAX_REPORTED) return;
    this.#reported.add(key);
    // Outside an app, or set with setTranslator(): a logger in the app's format.
    this.#logger ??= stdoutLogger();
    this.#logger.warn('i18n: missing key "%s" (asked for %s); answering with the key', key, locale);
  }
}

function withContext<T>(field: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw new RangeError(`i18n: ${field}: ${(err as Error).message}`);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Creates a translator over JSON catalogs; `app.use()` it (or `app.setTranslator()` it), then
 * `c.t(key, ...args)` answers in the request's `Accept-Language`.
 * @example app.use(i18n({ directory: new URL('./locales', import.meta.url) }));
 */
export function i18n(options: I18nOptions): JsonTranslator {
  return new JsonTranslator(options);
}
