import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Database } from '../../src/db/database.js';
import type { Delivery } from '../../src/db/outbox/types.js';
import { testApp } from '../app/helpers.js';
import { engines } from './engines.js';

/** Resolves when `check` holds, polling every 10 ms for at most `ms`. */
async function until(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.each(engines)('the outbox on $name', (engine) => {
  async function started(db: Database) {
    const { app, lines } = testApp();
    app.use(db);
    await app.ready();
    return { app, lines };
  }

  it('refuses to publish outside a transaction, and a rolled-back transaction publishes nothing', async () => {
    const db = await engine.fresh({ outboxPollMs: 20 });
    const got: string[] = [];
    db.subscribe(
      'note.added',
      async ({ event }) => {
        got.push((event.payload as { text: string }).text);
      },
      { name: 'collector' },
    );
    const { app } = await started(db);
    await expect(db.publish('note.added', { text: 'x' })).rejects.toThrow(
      /must run inside a transaction/,
    );
    await db
      .transaction(async () => {
        await db.publish('note.added', { text: 'rolled back' });
        throw new Error('undo');
      })
      .catch(() => {});
    await db.transaction(() => db.publish('note.added', { text: 'committed' }));
    await until(() => got.length === 1);
    await new Promise((r) => setTimeout(r, 100));
    expect(got).toEqual(['committed']);
    await app.close();
  });

  it("runs the handler's writes in the transaction that marks the event handled, retrying with backoff", async () => {
    const db = await engine.fresh({ outboxPollMs: 20 });
    await db.query('create table effects (event_id text, attempt int)');
    const attempts: Array<{ attempt: number; at: number }> = [];
    db.subscribe(
      'order.placed',
      async ({ event, attempt }: Delivery) => {
        attempts.push({ attempt, at: Date.now() });
        await db.sql`insert into effects values (${event.id}, ${attempt})`;
        if (attempt < 3) throw new Error(`flaky ${attempt}`);
      },
      { name: 'flaky', retries: 3, backoffMs: 50 },
    );
    const { app, lines } = await started(db);
    const id = await db.transaction(() => db.publish('order.placed', { order: 1 }));
    await until(
      async () =>
        (await db.sql`select 1 from keelson_deliveries where state = 'done'`).length === 1,
    );
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(45);
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(95);
    // The failed tries' writes were rolled back with them: one effect.
    expect(await db.sql`select event_id, attempt from effects`).toEqual([
      { event_id: id, attempt: 3 },
    ]);
    expect(lines.filter((l) => l.includes('failed in flaky'))).toHaveLength(2);
    await app.close();
  });

  it('dead-letters an event after its retries, lists it, and re-drives it', async () => {
    const db = await engine.fresh({ outboxPollMs: 20 });
    let fail = true;
    let handled = 0;
    db.subscribe(
      'mail.send',
      async () => {
        handled++;
        if (fail) throw new Error('smtp down');
      },
      { name: 'mailer', retries: 1, backoffMs: 10 },
    );
    const { app, lines } = await started(db);
    const id = await db.transaction(() => db.publish('mail.send', { to: 'a@b.c' }));
    await until(async () => (await db.deadEvents()).length === 1);
    expect(await db.deadEvents()).toEqual([
      {
        id,
        topic: 'mail.send',
        subscriber: 'mailer',
        attempts: 2,
        lastError: expect.stringContaining('smtp down'),
      },
    ]);
    const dead = lines
      .map((l) => JSON.parse(l))
      .find((e) => /dead-lettered/.test(e.msg ?? e.message));
    expect(dead.level).toBe('error');
    fail = false;
    expect(await db.retryEvent(id)).toBe(1);
    await until(() => handled === 3);
    await until(async () => (await db.deadEvents()).length === 0);
    await app.close();
  });

  it('delivers events with the same key in order, and checks typed topics on both ends', async () => {
    const db = await engine.fresh({ outboxPollMs: 20 });
    const events = db.topics({ 'stock.moved': z.object({ sku: z.string(), n: z.number().int() }) });
    const seen: number[] = [];
    events.subscribe(
      'stock.moved',
      async ({ event, attempt }) => {
        // The first try of n=1 fails: n=2 (same key) must wait for it.
        if (event.payload.n === 1 && attempt === 1) throw new Error('later');
        seen.push(event.payload.n);
      },
      { name: 'ledger', concurrency: 3, backoffMs: 30 },
    );
    const { app } = await started(db);
    await db.transaction(async () => {
      for (const n of [1, 2, 3])
        await events.publish('stock.moved', { sku: 'a', n }, { key: 'sku-a' });
    });
    await expect(
      db.transaction(() => events.publish('stock.moved', { sku: 'a', n: 1.5 })),
    ).rejects.toThrow(/payload.n/);
    await until(() => seen.length === 3);
    expect(seen).toEqual([1, 2, 3]);
    await app.close();
  });
});
