import type { App } from 'keelson';
import { testDatabase } from 'keelson/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';

// A database of this file's own (migrated, in memory), the app as main.ts builds it.
let app: App;
beforeAll(async () => {
  app = createApp({ env: 'production', db: await testDatabase({ migrations: 'migrations' }) });
});
afterAll(() => app.close());

const json = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});

describe('the __name__ module', () => {
  it('creates, reads, replaces and deletes a __words__', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/__name__',
      ...json({ name: 'first' }),
    });
    expect(created.statusCode).toBe(201);
    const { id } = created.json() as { id: number };

    const read = await app.inject(`/__name__/${id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ id, name: 'first' });

    const replaced = await app.inject({
      method: 'PUT',
      url: `/__name__/${id}`,
      ...json({ name: 'renamed' }),
    });
    expect(replaced.json()).toMatchObject({ id, name: 'renamed' });

    expect((await app.inject({ method: 'DELETE', url: `/__name__/${id}` })).statusCode).toBe(204);
    const gone = await app.inject(`/__name__/${id}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.headers['content-type']).toContain('application/problem+json');
  });

  it('pages through the list with limit and the cursor after', async () => {
    for (const name of ['a', 'b', 'c']) {
      await app.inject({ method: 'POST', url: '/__name__', ...json({ name }) });
    }
    const names: string[] = [];
    let after: number | null = 0;
    while (after !== null) {
      const page = await app.inject(`/__name__?limit=2&after=${after}`);
      expect(page.statusCode).toBe(200);
      const body = page.json() as { data: { name: string }[]; next: number | null };
      expect(body.data.length).toBeLessThanOrEqual(2);
      names.push(...body.data.map((item) => item.name));
      after = body.next;
    }
    expect(names).toEqual(['a', 'b', 'c']);
    expect((await app.inject('/__name__?limit=0')).statusCode).toBe(422);
  });

  it('answers 422 for a bad body and 404 for an unknown id', async () => {
    const bad = await app.inject({ method: 'POST', url: '/__name__', ...json({ name: '' }) });
    expect(bad.statusCode).toBe(422);
    const unknown = await app.inject({
      method: 'PUT',
      url: '/__name__/999999',
      ...json({ name: 'x' }),
    });
    expect(unknown.statusCode).toBe(404);
  });
});
