import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';

const app = createApp({ env: 'production' });
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
    const { id } = created.json() as { id: string };

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

  it('pages through the list with page and limit', async () => {
    for (const name of ['a', 'b', 'c']) {
      await app.inject({ method: 'POST', url: '/__name__', ...json({ name }) });
    }
    const page = await app.inject('/__name__?page=2&limit=2');
    expect(page.statusCode).toBe(200);
    const body = page.json() as { data: { name: string }[]; total: number; page: number };
    expect(body.page).toBe(2);
    expect(body.data.length).toBeGreaterThanOrEqual(1);
    expect(body.total).toBeGreaterThanOrEqual(3);
    expect((await app.inject('/__name__?limit=0')).statusCode).toBe(422);
  });

  it('answers 422 for a bad body and 404 for an unknown id', async () => {
    const bad = await app.inject({ method: 'POST', url: '/__name__', ...json({ name: '' }) });
    expect(bad.statusCode).toBe(422);
    const unknown = await app.inject({
      method: 'PUT',
      url: '/__name__/00000000-0000-4000-8000-000000000000',
      ...json({ name: 'x' }),
    });
    expect(unknown.statusCode).toBe(404);
  });
});
