import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { get } from '../../src/index.js';
import { testApp } from '../app/helpers.js';

describe('c.signal and the shutdown deadline', () => {
  const warnings: Error[] = [];
  const onWarning = (w: Error) => warnings.push(w);
  afterEach(() => {
    process.off('warning', onWarning);
  });

  it('leaves no listener on the app-wide deadline once a request is over', async () => {
    process.on('warning', onWarning);
    const { app } = testApp();
    app.addRoutes(get('/s', (c) => ({ aborted: c.signal.aborted })));
    await app.ready();
    for (let i = 0; i < 30; i++) await app.inject('/s');
    await app.fastify.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.fastify.server.address() as AddressInfo;
      for (let i = 0; i < 30; i++) {
        const res = await fetch(`http://127.0.0.1:${port}/s`);
        expect(await res.json()).toEqual({ aborted: false });
      }
    } finally {
      app.fastify.server.closeAllConnections();
      await app.fastify.close();
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  });
});
