// The success a route documents when it declares none: what it answers, and for a DELETE the
// 204 that `c.noContent()` sends, not a JSON 200 beside it.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RouteDef } from '../../src/extend/index.js';
import { del, get } from '../../src/index.js';
import { testApp } from '../app/helpers.js';

async function docOf(...routes: RouteDef[]) {
  const { app } = testApp();
  app.addRoutes(...routes);
  return { app, doc: await app.openapi() };
}

/** The success statuses (below 300) an operation documents. */
function successes(responses: Record<string, unknown> | undefined): string[] {
  return Object.keys(responses ?? {}).filter((s) => /^2\d\d$/.test(s));
}

describe('a route that declares no success', () => {
  it('documents 204 alone for a DELETE, as c.noContent() answers', async () => {
    const { app, doc } = await docOf(del('/notes/:id', (c) => c.noContent()));
    expect((await app.inject({ method: 'DELETE', url: '/notes/1' })).statusCode).toBe(204);
    const responses = doc.paths['/notes/{id}']?.delete?.responses;
    expect(successes(responses)).toEqual(['204']);
    expect(responses?.['204']).toEqual({ description: 'No Content' });
  });

  it('documents what a DELETE declares when it answers with a body', async () => {
    const Kept = z.object({ id: z.string() });
    const { app, doc } = await docOf(
      del('/kept/:id', { responses: { 200: Kept } }, (c) => ({ id: c.params.id })),
    );
    expect((await app.inject({ method: 'DELETE', url: '/kept/1' })).statusCode).toBe(200);
    expect(successes(doc.paths['/kept/{id}']?.delete?.responses)).toEqual(['200']);
  });

  it('documents 200 and 204 for the other methods, either of which they may answer', async () => {
    const { doc } = await docOf(get('/things', () => []));
    expect(successes(doc.paths['/things']?.get?.responses)).toEqual(['200', '204']);
  });
});
