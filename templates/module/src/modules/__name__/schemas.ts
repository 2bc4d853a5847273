import { z } from 'zod';

/** A __words__ as the API shows it. */
export const __Entity__ = z
  .object({
    id: z.number().int().meta({ description: 'The __words__ id.' }),
    name: z.string().min(1).max(200),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: '__Entity__' });

/** What a client sends to create or replace a __words__. */
export const __Entity__Input = __Entity__.pick({ name: true }).meta({ id: '__Entity__Input' });

/** The path parameter of one __words__. */
export const __Entity__Params = z.object({ id: z.coerce.number().int().positive() });

/** The list's query: a page of `limit` records after the cursor `after` (the last id seen). */
export const __Entity__PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  after: z.coerce.number().int().min(0).optional(),
});

/** A page of __words__ records and the `after` of the next page (null on the last one). */
export const __Entity__Page = z
  .object({ data: z.array(__Entity__), next: z.number().int().nullable() })
  .meta({ id: '__Entity__Page' });

/** A __words__ record. */
export type __Entity__ = z.infer<typeof __Entity__>;
/** The fields a client sets. */
export type __Entity__Input = z.infer<typeof __Entity__Input>;
