import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { get } from '../../src/index.js';

describe('cookie types', () => {
  it('types c.cookies as raw strings without a schema, and from the schema with one', () => {
    get('/raw', (c) => {
      expectTypeOf(c.cookies).toEqualTypeOf<Record<string, string | undefined>>();
      expectTypeOf(c.signedCookie('s')).toEqualTypeOf<string | undefined>();
      return null;
    });
    get(
      '/typed',
      { cookies: z.object({ cart: z.coerce.number(), theme: z.string().optional() }) },
      (c) => {
        expectTypeOf(c.cookies).toEqualTypeOf<{ cart: number; theme?: string | undefined }>();
        return null;
      },
    );
  });

  it('checks the options of setCookie', () => {
    get('/set', (c) => {
      c.setCookie('a', 'b', { sameSite: 'strict', maxAge: 60, signed: true });
      // @ts-expect-error SameSite has three values
      c.setCookie('a', 'b', { sameSite: 'sometimes' });
      // @ts-expect-error a cookie value is a string
      c.setCookie('a', 42);
      return null;
    });
  });
});
