import { describe, expect, it } from 'vitest';
import type { Span, Tracer } from '../../src/extend/index.js';
import { get } from '../../src/index.js';
import { requestEntries, testApp } from '../app/helpers.js';

/** What every Tracer must do, run against one implementation. */
export function tracerContract(name: string, make: () => Tracer): void {
  describe(`Tracer contract: ${name}`, () => {
    it('hands out spans whose methods never throw, with a string trace id or none', () => {
      const span = make().start('work', {
        kind: 'internal',
        attributes: { a: 1, b: 'x', c: true },
      });
      span.setAttribute('k', 'v');
      span.recordError(new Error('e'));
      span.recordError('not an error');
      span.end();
      span.end();
      expect(
        span.traceId === undefined || (typeof span.traceId === 'string' && span.traceId !== ''),
      ).toBe(true);
    });

    it('serves requests through an App, with child spans of c.span and failing handlers', async () => {
      const { app, lines } = testApp();
      const tracer = make();
      app.setTracer(tracer);
      let child: Span | undefined;
      app.addRoutes(
        get('/ok', (c) => {
          child = app.tracer.start('child', { parent: c.span });
          child.end();
          return { ok: true };
        }),
        get('/boom', () => {
          throw new Error('boom');
        }),
      );
      expect(
        (await app.inject({ url: '/ok', headers: { traceparent: 'garbage' } })).statusCode,
      ).toBe(200);
      expect((await app.inject('/boom')).statusCode).toBe(500);
      expect(child).toBeDefined();
      expect(requestEntries(lines).map((e) => e.status)).toEqual([200, 500]);
    });
  });
}
