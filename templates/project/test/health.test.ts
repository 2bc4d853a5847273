import { testDatabase } from 'keelson/testing';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';

describe('the service', () => {
  it('answers GET /health with UP, its database included', async () => {
    const db = await testDatabase({ migrations: 'migrations' });
    const app = createApp({ env: 'production', db });
    const response = await app.inject('/health');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'UP',
      service: '__service__',
      checks: { database: 'UP' },
    });
    await app.close();
  });
});
