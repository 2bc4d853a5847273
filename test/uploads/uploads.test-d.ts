import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { file, multipart, post } from '../../src/index.js';

describe('upload body types', () => {
  it('gives the handler a File per file field and each text schema output', () => {
    post(
      '/avatar',
      {
        body: multipart({
          avatar: file({ maxBytes: 1024, types: ['image/png'] }),
          cover: file({ optional: true }),
          note: z.string(),
          age: z.coerce.number(),
        }),
      },
      (c) => {
        expectTypeOf(c.body.avatar).toEqualTypeOf<File>();
        expectTypeOf(c.body.cover).toEqualTypeOf<File | undefined>();
        expectTypeOf(c.body.note).toEqualTypeOf<string>();
        expectTypeOf(c.body.age).toEqualTypeOf<number>();
        expectTypeOf(c.body.avatar.text).returns.toEqualTypeOf<Promise<string>>();
        // @ts-expect-error: not a field of the form
        c.body.other;
        return null;
      },
    );
  });

  it('refuses a field that is neither file() nor a schema', () => {
    // @ts-expect-error: a plain string is not a field
    multipart({ note: 'text' });
  });
});
