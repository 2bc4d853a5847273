/**
 * keelson/i18n: a Translator over JSON catalogs, with placeholders, plural forms and locale
 * fallback. No library to install: it uses `Intl`.
 * @module
 */

export type { Catalog, Message, PluralForms } from './catalog.js';
export { type I18nOptions, i18n, JsonTranslator } from './translator.js';
