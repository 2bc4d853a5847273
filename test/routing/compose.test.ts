import { describe, expect, it } from 'vitest';
import { get, type Middleware } from '../../src/index.js';
import { testApp } from '../app/helpers.js';

describe('middleware composition', () => {
  it('answers 500 when a middleware calls next() twice, and runs the handler once', async () => {
    let runs = 0;
    const twice: Middleware = async (_c, next) => {
      await next();
      return next();
    };
    const { app, lines } = testApp();
    app.addRoutes(
      get('/twice', { middleware: [twice] }, () => {
        runs++;
        return { ok: true };
      }),
    );
    const res = await app.inject('/twice');
    expect(res.statusCode).toBe(500);
    expect(runs).toBe(1);
    expect(lines.join('\n')).toContain('next() called more than once');
  });

  it('sends the body of a middleware that answers early, without running the handler', async () => {
    let ran = false;
    const early: Middleware = () => ({ cached: true, from: 'middleware' });
    const { app } = testApp();
    app.addRoutes(
      get('/early', { middleware: [early] }, () => {
        ran = true;
        return { cached: false };
      }),
    );
    const res = await app.inject('/early');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ cached: true, from: 'middleware' });
    expect(ran).toBe(false);
  });

  it("passes the handler's answer through a middleware that awaits next() without returning it", async () => {
    const forgetful: Middleware = async (_c, next) => {
      await next();
    };
    const { app } = testApp();
    app.addRoutes(get('/pass', { middleware: [forgetful] }, () => ({ from: 'handler' })));
    expect((await app.inject('/pass')).json()).toEqual({ from: 'handler' });
  });

  it('sends what a middleware returns in place of the answer next() gave it', async () => {
    const wrap: Middleware = async (_c, next) => ({ wrapped: await next() });
    const { app } = testApp();
    app.addRoutes(get('/wrap', { middleware: [wrap] }, () => ({ from: 'handler' })));
    expect((await app.inject('/wrap')).json()).toEqual({ wrapped: { from: 'handler' } });
  });

  it('runs app, group and route middleware outermost first, and unwinds in reverse', async () => {
    const order: string[] = [];
    const mark =
      (name: string): Middleware =>
      async (_c, next) => {
        order.push(`${name}>`);
        const out = await next();
        order.push(`<${name}`);
        return out;
      };
    const { app } = testApp();
    app.use(mark('app'));
    app
      .group('/g', mark('group'))
      .addRoutes(get('/r', { middleware: [mark('route')] }, () => order.push('handler') && {}));
    await app.inject('/g/r');
    expect(order).toEqual(['app>', 'group>', 'route>', 'handler', '<route', '<group', '<app']);
  });
});
