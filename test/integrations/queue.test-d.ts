import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { queue } from '../../src/integrations/queue/index.js';
import { scheduler } from '../../src/integrations/scheduler/index.js';

const Email = z.object({ to: z.string(), retries: z.number().default(0) });
const emails = queue('emails', { connection: { host: 'localhost' }, payload: Email });

describe('keelson/queue types', () => {
  it('takes the schema input on add and hands the handler its output', () => {
    expectTypeOf(emails.add).parameter(0).toEqualTypeOf<{ to: string; retries?: number }>();
    emails.process((data, job) => {
      expectTypeOf(data).toEqualTypeOf<{ to: string; retries: number }>();
      expectTypeOf(job.attempt).toBeNumber();
      expectTypeOf(job.signal).toEqualTypeOf<AbortSignal>();
    });
    // @ts-expect-error: `to` is required by the schema
    void emails.add({ retries: 1 });
    // @ts-expect-error: a schedule's payload is checked too
    void emails.schedule('digest', { everyMs: 1000 }, { to: 1 });
  });
});

describe('keelson/scheduler types', () => {
  it('gives a handler the scheduled time of its tick', () => {
    scheduler().add({
      name: 'tick',
      schedule: '* * * * *',
      handler(signal, tick) {
        expectTypeOf(signal).toEqualTypeOf<AbortSignal>();
        expectTypeOf(tick.scheduledAt).toEqualTypeOf<Date>();
      },
    });
  });
});
