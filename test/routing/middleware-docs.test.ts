import { describe, expect, it } from 'vitest';
import { describeMiddleware, middlewareDocsOf } from '../../src/extend/index.js';
import type { Middleware } from '../../src/index.js';

describe('describeMiddleware', () => {
  it('returns the same function, carrying what it declares', () => {
    const mw: Middleware = (_c, next) => next();
    const docs = { responses: { 401: { description: 'No credentials' } } };
    expect(describeMiddleware(mw, docs)).toBe(mw);
    expect(middlewareDocsOf(mw)).toBe(docs);
  });

  it('gives undefined for a middleware that declares nothing', () => {
    expect(middlewareDocsOf((_c, next) => next())).toBeUndefined();
  });

  it('refuses something that is not a function', () => {
    expect(() => describeMiddleware({} as Middleware, {})).toThrow(
      /middleware function, got object/,
    );
  });
});
