/**
 * Operation ids and path templates made from a route's method and path.
 * @module
 */
import type { HttpMethod } from '../routing/types.js';

/** `:name`, with an optional `(regex)` and `?` after it. */
const PARAM = /:([A-Za-z0-9_]+)(?:\([^)]*\))?\??/g;

/** `word` with its first letter in upper case. */
export function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/**
 * The default operationId of a route: the method, then each path segment capitalized, a
 * parameter as `By<Name>`.
 * @example defaultOperationId('GET', '/users/:id') // 'getUsersById'
 */
export function defaultOperationId(method: HttpMethod, path: string): string {
  const words = path
    .replace(PARAM, ' by $1 ')
    .replace(/\*/g, ' wildcard ')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return method.toLowerCase() + (words.length ? words.map(capitalize).join('') : 'Root');
}
