/**
 * The behaviour every idempotency store must give, run by each store's test file: replays,
 * 50 concurrent retries of one POST, 422 on a reused key, 5xx and thrown errors not kept,
 * `required`, methods that pass through, and 409 while the first request runs.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { afterEach, expect, it } from 'vitest';
import { z } from 'zod';
import { type App, get, type Middleware, post } from '../../src/index.js';
import { testApp } from '../app/helpers.js';

/** Where one case keeps its orders: a table, or memory. */
export interface Orders {
  /** Creates an order and resolves it. */
  insert(item: string): Promise<{ id: number; item: string }>;
  /** How many orders there are. */
  count(): Promise<number>;
}

/** Orders in an array. */
export function memoryOrders(): Orders {
  const rows: { id: number; item: string }[] = [];
  return {
    insert: async (item) => {
      const row = { id: rows.length + 1, item };
      rows.push(row);
      return row;
    },
    count: async () => rows.length,
  };
}

/** What a store's test file gives the suite. */
export interface StoreCase {
  /** Prepares an app (e.g. `app.use(db)`) and resolves where orders go. */
  prepare(app: App): Promise<Orders>;
  /** The middleware of an idempotent route, idempotency included. */
  middleware(options?: { required?: boolean }): Middleware[];
  /**
   * True when a request can see another one with its key still running (false for a
   * transactional route on PGlite: the second request waits for the first's transaction).
   */
  seesRunning: boolean;
}

/** A gate: `wait()` resolves once `open()` was called. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, wait: () => opened };
}

const Body = z.object({ item: z.string() });

/** Registers the contract cases for the store `make()` gives. */
export function idempotencyCases(make: () => StoreCase): void {
  const apps: App[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((a) => a.close()));
  });

  async function orderApp(
    options: { required?: boolean; outer?: Middleware[]; handler?: () => Promise<void> } = {},
  ) {
    const store = make();
    const { app, lines } = testApp();
    apps.push(app);
    const orders = await store.prepare(app);
    let runs = 0;
    app.addRoutes(
      post(
        '/orders',
        {
          body: Body,
          middleware: [...(options.outer ?? []), ...store.middleware(options)],
        },
        async (c) => {
          runs++;
          await options.handler?.();
          const order = await orders.insert(c.body.item);
          c.header('location', `/orders/${order.id}`);
          return c.created(order);
        },
      ),
    );
    const send = (key: string | undefined, item = 'tea', url = '/orders') =>
      app.inject({
        method: 'POST',
        url,
        payload: { item },
        headers: key === undefined ? {} : { 'idempotency-key': key },
      });
    return { app, lines, orders, send, runs: () => runs, seesRunning: store.seesRunning };
  }

  it('runs the first request and gives its status, headers and body again to a retry', async () => {
    const { send, orders } = await orderApp();
    const key = randomUUID();
    const first = await send(key);
    const again = await send(key);
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(await orders.count()).toBe(1);
  });

  it('makes one order of 50 concurrent retries of one POST: the rest replays or 409s, never a 500', async () => {
    const arrived = gate();
    let seen = 0;
    // Outermost: the first handler waits until all 50 requests have reached the route.
    const counter: Middleware = (_c, next) => {
      if (++seen === 50) arrived.open();
      return next();
    };
    const { send, orders, lines } = await orderApp({ outer: [counter], handler: arrived.wait });
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 50 }, () => send(key)));
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s !== 201 && s !== 409)).toEqual([]);
    const created = answers.filter((r) => r.statusCode === 201);
    expect(created.filter((r) => r.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    expect(new Set(created.map((r) => r.body)).size).toBe(1);
    for (const r of answers.filter((a) => a.statusCode === 409)) {
      expect(r.headers['retry-after']).toBe('1');
      expect(r.json()).toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_IN_USE' });
    }
    expect(await orders.count()).toBe(1);
    const later = await send(key);
    expect(later.statusCode).toBe(201);
    expect(later.headers['idempotent-replayed']).toBe('true');
    expect(later.body).toBe(created[0]!.body);
    expect(lines.filter((l) => l.includes('"level":"error"'))).toEqual([]);
  });

  it('answers 422 to the same key on a different body or URL', async () => {
    const { send, orders } = await orderApp();
    const key = randomUUID();
    expect((await send(key, 'tea')).statusCode).toBe(201);
    const other = await send(key, 'coffee');
    expect(other.statusCode).toBe(422);
    expect(other.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(other.json()).toMatchObject({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
    expect((await send(key, 'tea', '/orders?copy=1')).statusCode).toBe(422);
    expect(await orders.count()).toBe(1);
  });

  it('keeps no 5xx answer and no thrown error: the retry runs again', async () => {
    const store = make();
    const { app } = testApp();
    apps.push(app);
    await store.prepare(app);
    const plan = ['503', 'throw', 'ok'];
    let runs = 0;
    app.addRoutes(
      post('/pay', { middleware: store.middleware() }, (c) => {
        runs++;
        const step = plan.shift();
        if (step === '503') return c.status(503, { busy: true });
        if (step === 'throw') throw new Error('boom');
        return c.created({ paid: runs });
      }),
    );
    const key = randomUUID();
    const pay = () =>
      app.inject({ method: 'POST', url: '/pay', payload: {}, headers: { 'idempotency-key': key } });
    expect((await pay()).statusCode).toBe(503);
    expect((await pay()).statusCode).toBe(500);
    const ok = await pay();
    expect([ok.statusCode, ok.json()]).toEqual([201, { paid: 3 }]);
    const replay = await pay();
    expect([replay.statusCode, replay.json(), replay.headers['idempotent-replayed']]).toEqual([
      201,
      { paid: 3 },
      'true',
    ]);
    expect(runs).toBe(3);
  });

  it('answers 400 to a request without a key when required, and runs it otherwise', async () => {
    const strict = await orderApp({ required: true });
    const refused = await strict.send(undefined);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().detail).toMatch(/Idempotency-Key/);
    expect(await strict.orders.count()).toBe(0);
    const lax = await orderApp();
    expect((await lax.send(undefined)).statusCode).toBe(201);
    expect((await lax.send(undefined)).statusCode).toBe(201);
    expect(await lax.orders.count()).toBe(2);
  });

  it('lets GET through: a key on it keeps nothing', async () => {
    const store = make();
    const { app } = testApp();
    apps.push(app);
    await store.prepare(app);
    let runs = 0;
    app.addRoutes(
      get('/count', { middleware: store.middleware({ required: true }) }, () => ++runs),
    );
    const key = randomUUID();
    for (let i = 0; i < 2; i++) {
      const r = await app.inject({ url: '/count', headers: { 'idempotency-key': key } });
      expect(r.headers['idempotent-replayed']).toBeUndefined();
    }
    expect((await app.inject('/count')).statusCode).toBe(200);
    expect(runs).toBe(3);
  });

  it('answers 409 with Retry-After while the first request with the key runs', async (ctx) => {
    if (!make().seesRunning) ctx.skip();
    const release = gate();
    const started = gate();
    const { send, orders } = await orderApp({
      handler: async () => {
        started.open();
        await release.wait();
      },
    });
    const key = randomUUID();
    const first = send(key);
    await started.wait();
    const second = await send(key);
    expect(second.statusCode).toBe(409);
    expect(second.headers['retry-after']).toBe('1');
    release.open();
    expect((await first).statusCode).toBe(201);
    expect(await orders.count()).toBe(1);
  });
}
