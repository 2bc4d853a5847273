import { describe, expect, it } from 'vitest';
import { App, ConfigError, get } from '../../src/index.js';
import { LogFormat, newLoggerWithFormat } from '../../src/logger/index.js';

describe('new App(config)', () => {
  it('applies the defaults of SPEC.md: port 3000, env development, health on, docs at /docs', () => {
    const app = new App({ serviceName: 'svc' });
    expect(app.config).toMatchObject({
      serviceName: 'svc',
      port: 3000,
      env: 'development',
      disableHealth: false,
      version: '1.0.0',
      docs: { path: '/docs', version: '1.0.0', title: 'svc', enabled: true },
      health: { timeoutMs: 800, cacheMs: 0 },
      bodyLimit: 1024 * 1024,
      shutdownTimeoutMs: 10_000,
    });
  });

  it('creates a text logger with debug on outside production and a JSON logger in production', () => {
    const dev = new App({ serviceName: 'svc' });
    expect(dev.logger.format).toBe(LogFormat.Text);
    expect(dev.logger.isProduction).toBe(false);
    const prod = new App({ serviceName: 'svc', env: 'production' });
    expect(prod.logger.format).toBe(LogFormat.JSON);
    expect(prod.logger.isProduction).toBe(true);
  });

  it('throws a ConfigError naming the field and the value for a bad config', () => {
    expect(() => new App({ serviceName: 'svc', port: 70_000 })).toThrow(ConfigError);
    expect(() => new App({ serviceName: 'svc', port: 70_000 })).toThrow(/port.*70000/);
    expect(() => new App({ serviceName: 'svc', env: 'prod' as 'production' })).toThrow(
      /env.*"prod"/,
    );
  });

  it('exposes the engine, a tracer that is never null, and no address before listen', async () => {
    const app = new App({ serviceName: 'svc' });
    expect(typeof app.fastify.inject).toBe('function');
    expect(app.tracer).toBeDefined();
    expect(app.address).toBeUndefined();
    app.addRoutes(get('/x', () => 1));
    expect(app.routes.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /x']);
    await app.ready();
    expect(app.routes.map((r) => `${r.method} ${r.path}`)).toContain('GET /health');
  });

  it('serves the docs routes outside production and answers 404 for them in production', async () => {
    const dev = new App({ serviceName: 'svc', logger: quiet() });
    expect((await dev.inject('/docs/openapi.json')).statusCode).toBe(200);
    const prod = new App({ serviceName: 'svc', env: 'production', logger: quiet() });
    expect((await prod.inject('/docs')).statusCode).toBe(404);
    expect((await prod.inject('/docs/openapi.json')).statusCode).toBe(404);
  });

  it('runs close() once however often it is called, and resolves true when every hook passed', async () => {
    const app = new App({ serviceName: 'svc', logger: quiet() });
    let runs = 0;
    app.onShutdown(() => {
      runs++;
    });
    const [a, b] = await Promise.all([app.close(), app.close()]);
    expect([a, b, runs]).toEqual([true, true, 1]);
  });

  it('resolves close() false when a hook throws, and still runs the hooks after it', async () => {
    const app = new App({ serviceName: 'svc', logger: quiet() });
    const ran: string[] = [];
    app.onShutdown(() => {
      throw new Error('nope');
    });
    app.onShutdown(() => {
      ran.push('second');
    });
    expect(await app.close()).toBe(false);
    expect(ran).toEqual(['second']);
  });
});

function quiet() {
  return newLoggerWithFormat(false, LogFormat.JSON).withWriter({ write() {} });
}
