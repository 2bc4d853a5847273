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

/** The path parameter of one __words__. */
export const __Entity__Params = z.object({ id: z.uuid() });

/** A __words__ record. */
export type __Entity__ = z.infer<typeof __Entity__>;
/** The fields a client sets. */
export type __Entity__Input = z.infer<typeof __Entity__Input>;
