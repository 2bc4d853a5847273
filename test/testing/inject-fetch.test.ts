import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { get, post } from '../../src/index.js';
import { injectFetch } from '../../src/testing/index.js';
import { testApp } from '../app/helpers.js';

// fetch through app.inject(): request headers and body reach the app, and the Response is what
// fetch would give, bodies left out where HTTP has none.

describe('injectFetch', () => {
  it('sends headers and the body, and answers with status, repeated headers and body', async () => {
    const { app } = testApp();
    app.addRoutes(
      post('/echo', { body: z.object({ n: z.number() }) }, (c) => {
        c.reply.header('set-cookie', ['a=1', 'b=2']);
        return c.created({ n: c.body.n, who: c.request.headers['x-who'] ?? null });
      }),
      get('/empty', (c) => c.noContent()),
      get('/page', () => 'body'),
    );
    const f = injectFetch(app);
    const res = await f(new URL('http://ignored.example/echo?x=1'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-who': 'me' },
      body: JSON.stringify({ n: 2 }),
    });
    expect(res.status).toBe(201);
    expect(res.statusText).toBe('Created');
    expect(await res.json()).toEqual({ n: 2, who: 'me' });
    expect(res.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    // Without a body the request has no payload: a JSON route refuses it as missing.
    const none = await f('http://x/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    expect(none.status).toBe(422);
    const empty = await f('http://x/empty');
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
    const headed = await f('http://x/page', { method: 'HEAD' });
    expect(headed.status).toBe(200);
    expect(headed.body).toBeNull();
    expect(await (await f('http://x/page')).json()).toBe('body');
  });
});
