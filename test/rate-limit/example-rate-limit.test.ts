import { describe, expect, it } from 'vitest';
import { exampleApp } from '../support/example-app.js';
import { send, serve } from '../support/serve.js';

describe('the rate-limited route of examples/basic', () => {
  it('answers five quotes a minute per client, then 429 with Retry-After', async () => {
    const app = await exampleApp({ port: 0, host: '127.0.0.1', env: 'production' });
    const port = await serve(app);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await send(port, '/quote')).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      const over = await send(port, '/quote');
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expect(over.headers['ratelimit-limit']).toBe('5');
    } finally {
      await app.close();
    }
  });
});
