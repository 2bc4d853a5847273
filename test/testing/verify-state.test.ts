import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { del, get, notFound, patch, post } from '../../src/index.js';
import { verifyContract } from '../../src/testing/index.js';
import { testApp } from '../app/helpers.js';

// What verifyContract carries between operations (the order, values from responses, declared
// links, a Location header) and what it reports having reached.

describe('verifyContract across operations', () => {
  it('reports the statuses each operation reached and lists the ones with no 2xx', async () => {
    const { app } = testApp();
    app.addRoutes(
      get('/ok', () => ({ ok: true })),
      get('/missing/:id', { errors: [404] }, () => {
        throw notFound('never here');
      }),
    );
    const report = await verifyContract(app, { runs: 2 });
    expect(report).toEqual([]);
    expect(report.violations).toBe(report);
    expect(report.coverage.unreached).toEqual(['GET /missing/{id}', 'HEAD /missing/{id}']);
    expect(report.coverage.operations.find((o) => o.operation === 'GET /ok')).toEqual({
      operation: 'GET /ok',
      statuses: [200],
      sent: 2,
      success: true,
      notes: [],
    });
  });

  it('creates, reads, updates, lists, deletes; an update that renames retires the old value', async () => {
    const { app } = testApp();
    const things = new Set<string>();
    const Thing = z.object({ id: z.string() });
    const found = (id: string) => {
      if (!things.has(id)) throw notFound('no such thing');
    };
    app.addRoutes(
      del('/things/:id', { errors: [404] }, (c) => {
        found(c.params.id);
        things.delete(c.params.id);
        return c.noContent();
      }),
      get('/things', { responses: { 200: z.array(Thing) } }, () =>
        [...things].map((id) => ({ id })),
      ),
      patch('/things/:id', { responses: { 200: Thing }, errors: [404] }, (c) => {
        found(c.params.id);
        things.delete(c.params.id);
        things.add(`${c.params.id}x`);
        return { id: `${c.params.id}x` };
      }),
      get('/things/:id', { responses: { 200: Thing }, errors: [404] }, (c) => {
        found(c.params.id);
        return { id: c.params.id };
      }),
      post('/things', { responses: { 201: Thing } }, () => {
        const id = `t${things.size}`;
        things.add(id);
        return { id };
      }),
    );
    const report = await verifyContract(app, {
      runs: 2,
      invalid: false,
      include: (_method, path) => path.startsWith('/things'),
    });
    expect(report).toEqual([]);
    expect(report.coverage.operations.map((o) => `${o.operation} ${o.statuses}`)).toEqual([
      'POST /things 201',
      'GET /things/{id} 200',
      'HEAD /things/{id} 200',
      'PATCH /things/{id} 200',
      'GET /things 200',
      'HEAD /things 200',
      'DELETE /things/{id} 204',
    ]);
    expect(things.size).toBe(0);
  });

  it('honours a link the document declares, and takes a value from a Location header', async () => {
    const { app } = testApp();
    const tickets = new Set(['T1']);
    const files = new Set<string>();
    app.addRoutes(
      post('/tickets', { responses: { 201: z.object({ ref: z.string() }) } }, () => ({
        ref: 'T1',
      })),
      get('/tickets/:code', { errors: [404] }, (c) => {
        if (!tickets.has(c.params.code)) throw notFound('no such ticket');
        throw new Error('planted: fails on a ticket that exists');
      }),
      post('/files', { responses: { 201: z.object({ size: z.number() }) } }, (c) => {
        const name = `f${files.size}.txt`;
        files.add(name);
        c.reply.header('location', `/files/${name}`);
        return { size: 1 };
      }),
      get('/files/:name', { errors: [404] }, (c) => {
        if (!files.has(c.params.name)) throw notFound('no such file');
        throw new Error('planted: fails on a file that exists');
      }),
    );
    const failing = async () =>
      new Set((await verifyContract(app, { runs: 1, invalid: false })).map((v) => v.operation));
    // No response names `code`: without a declared link, a made-up code only gets 404s.
    expect(await failing()).toEqual(new Set(['GET /files/{name}', 'HEAD /files/{name}']));
    const doc = await app.openapi();
    doc.paths['/tickets']!.post!.responses['201']!.links = {
      readTicket: { operationId: 'getTicketsByCode', parameters: { code: '$response.body#/ref' } },
    };
    expect(await failing()).toEqual(
      new Set(['GET /files/{name}', 'HEAD /files/{name}', 'GET /tickets/{code}']),
    );
  });
});
