/**
 * Module and service names: what is accepted, and the identifiers made from them.
 * @module
 */
import { UsageError } from './usage.js';

/** Lower-case words of letters and digits joined by single hyphens: `users`, `order-items`. */
const NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/** The forms of a module name the templates use. */
export interface NameForms {
  /** The name as given, for folders and URL paths: `order-items`. */
  readonly kebab: string;
  /** The class-name prefix: `OrderItems`. */
  readonly plural: string;
  /** The entity's type name: `OrderItem`. */
  readonly singular: string;
  /** The entity in prose: `order item`. */
  readonly words: string;
}

/** Checks a module name; throws a UsageError saying what a good one looks like. */
export function checkModuleName(name: string | undefined): string {
  if (!name)
    throw new UsageError('a module name is required, e.g. `keelson generate module users`');
  if (name.length > 40 || !NAME.test(name)) {
    throw new UsageError(
      `invalid module name ${JSON.stringify(name)}: use lower-case words of letters and digits joined by hyphens, starting with a letter, at most 40 characters (e.g. users, order-items)`,
    );
  }
  return name;
}

/** Checks a service name (the package name and `serviceName`), same rules as a module name. */
export function checkServiceName(name: string): string {
  if (name.length > 60 || !NAME.test(name)) {
    throw new UsageError(
      `invalid service name ${JSON.stringify(name)}: use lower-case words of letters and digits joined by hyphens (e.g. orders-api); pass --name when the folder's name is not one`,
    );
  }
  return name;
}

// Words whose singular is the same word: the entity gets `Item` appended instead.
const UNCOUNTED = new Set([
  'data',
  'feedback',
  'info',
  'metadata',
  'news',
  'series',
  'species',
  'status',
]);

function singularOf(word: string): string {
  if (UNCOUNTED.has(word)) return word;
  if (word.endsWith('ies') && word.length > 3) return `${word.slice(0, -3)}y`;
  if (/(?:ss|us|is)$/.test(word) || !word.endsWith('s') || word.length < 3) return word;
  if (word.endsWith('zzes')) return word.slice(0, -3);
  if (/(?:xes|ches|shes|sses)$/.test(word)) return word.slice(0, -2);
  return word.slice(0, -1);
}

const pascal = (words: readonly string[]) =>
  words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');

/** The forms of a checked module name; the last word is made singular for the entity. */
export function nameForms(name: string): NameForms {
  const words = name.split('-');
  const last = words.at(-1)!;
  let singularWords = [...words.slice(0, -1), singularOf(last)];
  // `news`, `series`: when singular and plural agree, the entity still needs its own name.
  if (singularWords.join('-') === name) singularWords = [...words, 'item'];
  return {
    kebab: name,
    plural: pascal(words),
    singular: pascal(singularWords),
    words: singularWords.join(' '),
  };
}

/** The file name `db new` writes for `name` next to `existing`: the next number, same width. */
export function nextMigrationName(existing: readonly string[], name: string): string {
  let last = 0;
  let width = 4;
  for (const file of existing) {
    const m = /^(\d+)_.*\.sql$/.exec(file);
    if (!m) continue;
    last = Math.max(last, Number(m[1]));
    width = Math.max(width, m[1]!.length);
  }
  return `${String(last + 1).padStart(width, '0')}_${name.replaceAll('-', '_')}.sql`;
}
