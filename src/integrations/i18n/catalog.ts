import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A catalog: keys to messages. A nested object is read as dotted keys (`{ a: { b } }` → `a.b`). */
export interface Catalog {
  [key: string]: string | Catalog;
}

/** Plural forms of one message, by `Intl.PluralRules` category; `other` is required. */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

/** A message: a string, or plural forms picked by the `count` argument. */
export type Message = string | PluralForms;

const CATEGORIES = new Set<string>(['zero', 'one', 'two', 'few', 'many', 'other']);

/** A locale tag in its canonical form (`pt-br` → `pt-BR`); throws on a malformed tag. */
export function canonicalLocale(tag: string): string {
  let canonical: string | undefined;
  try {
    [canonical] = Intl.getCanonicalLocales(tag);
  } catch {
    canonical = undefined;
  }
  if (!canonical) throw new RangeError(`"${tag}" is not a locale tag such as en or pt-BR`);
  return canonical;
}

/** Flattens a catalog into dotted keys; `where` names the catalog in errors. */
export function flattenCatalog(catalog: unknown, where: string): Map<string, Message> {
  const out = new Map<string, Message>();
  if (!isObject(catalog)) {
    throw new TypeError(
      `i18n: ${where} should be an object of messages, instead got ${kind(catalog)}`,
    );
  }
  const walk = (node: Record<string, unknown>, prefix: string) => {
    for (const [k, value] of Object.entries(node)) {
      const key = prefix ? `${prefix}.${k}` : k;
      if (typeof value === 'string') out.set(key, value);
      else if (isPluralForms(value)) out.set(key, value);
      else if (isObject(value)) walk(value, key);
      else {
        throw new TypeError(
          `i18n: ${where}: "${key}" should be a string, plural forms or an object of messages, instead got ${kind(value)}`,
        );
      }
    }
  };
  walk(catalog, '');
  return out;
}

/** Reads every `<locale>.json` of `directory`: locale → catalog, in the order of the locale tags. */
export function readCatalogDirectory(directory: string | URL): Map<string, unknown> {
  const dir = typeof directory === 'string' ? directory : fileURLToPath(directory);
  const out = new Map<string, unknown>();
  for (const file of readdirSync(dir)) {
    if (!file.endsWith('.json')) continue;
    const path = join(dir, file);
    let locale: string;
    try {
      locale = canonicalLocale(file.slice(0, -'.json'.length));
    } catch (err) {
      throw new RangeError(
        `i18n: ${path}: the file name should be <locale>.json: ${(err as Error).message}`,
      );
    }
    try {
      out.set(locale, JSON.parse(readFileSync(path, 'utf8')));
    } catch (err) {
      throw new SyntaxError(`i18n: ${path} is not valid JSON: ${(err as Error).message}`);
    }
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPluralForms(value: unknown): value is PluralForms {
  if (!isObject(value) || typeof value.other !== 'string') return false;
  return Object.entries(value).every(([k, v]) => CATEGORIES.has(k) && typeof v === 'string');
}

function kind(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}
