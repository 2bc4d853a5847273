import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';

describe('the service', () => {
  it('answers GET /health with UP', async () => {
    const response = await createApp({ env: 'production' }).inject('/health');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'UP', service: '__service__' });
  });
});
