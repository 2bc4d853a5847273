import { z } from 'zod';

/** A __words__ as the API shows it. */
export const __Entity__ = z
  .object({
    id: z.uuid().meta({ description: 'The __words__ id.' }),
    name: z.string().min(1).max(200),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: '__Entity__' });

/** What a client sends to create or replace a __words__. */
export const __Entity__Input = __Entity__.pick({ name: true }).meta({ id: '__Entity__Input' });

/** One page of __words__ records, newest last. */
export const __Entity__Page = z
  .object({
    items: z.array(__Entity__),
    total: z.number().int().meta({ description: 'How many there are in all.' }),
    limit: z.number().int(),
    offset: z.number().int(),
  })
  .meta({ id: '__Entity__Page' });

/** The path parameter of one __words__. */
export const __Entity__Params = z.object({ id: z.uuid() });

/** Paging: `?limit=20&offset=0`. */
export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
});

/** A __words__ record. */
export type __Entity__ = z.infer<typeof __Entity__>;
/** The fields a client sets. */
export type __Entity__Input = z.infer<typeof __Entity__Input>;
