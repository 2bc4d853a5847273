import { describe, expect, it } from 'vitest';
import { addIntegrations } from '../../examples/basic/integrations.js';
import { testApp } from '../app/helpers.js';

describe('the integrations of examples/basic', () => {
  it('greets in the negotiated language, counts it in /metrics and reports the job in /health', async () => {
    const { app } = testApp();
    addIntegrations(app);
    const hello = await app.inject({
      url: '/hello?name=Ada&count=3',
      headers: { 'accept-language': 'pt-BR,pt;q=0.9,en;q=0.5' },
    });
    expect(hello.json()).toEqual({
      lang: 'pt-BR',
      greeting: 'Oi, Ada!',
      unread: '3 mensagens novas',
    });
    expect((await app.inject('/hello')).json()).toEqual({
      lang: 'en',
      greeting: 'Hello, world!',
      unread: 'No new messages',
    });
    const metrics = (await app.inject('/metrics')).body;
    expect(metrics).toContain(
      'http_requests_total{method="GET",route="/hello",status_code="200"} 2',
    );
    expect((await app.inject('/health')).json().checks).toEqual({ scheduler: 'UP' });
    const paths = Object.keys((await app.openapi()).paths ?? {});
    expect(paths).toContain('/hello');
    expect(paths).not.toContain('/metrics');
    expect(await app.close()).toBe(true);
  });
});
