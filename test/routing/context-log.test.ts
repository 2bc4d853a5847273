import { describe, expect, it } from 'vitest';
import { NOOP_SPAN, type Tracer } from '../../src/extend/index.js';
import { get } from '../../src/index.js';
import { testApp } from '../app/helpers.js';

function messages(lines: string[]): Record<string, unknown>[] {
  return lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((e) => 'message' in e);
}

describe('c.log', () => {
  it('writes entries that carry the request id, joinable to the request', async () => {
    const { app, lines } = testApp();
    app.addRoutes(
      get('/work', (c) => {
        c.log.info('working on %s', 'it');
        c.log.warn('still working');
        return { id: c.requestId };
      }),
    );

    const res = await app.inject('/work');
    const { id } = res.json<{ id: string }>();
    expect(id).toBeTruthy();
    expect(messages(lines)).toEqual([
      expect.objectContaining({ level: 'info', message: 'working on it', requestId: id }),
      expect.objectContaining({ level: 'warn', message: 'still working', requestId: id }),
    ]);
  });

  it('gives each request its own id and the same logger on every access', async () => {
    const { app, lines } = testApp();
    app.addRoutes(
      get('/same', (c) => {
        const first = c.log;
        first.info('a');
        return { same: first === c.log };
      }),
    );

    const first = await app.inject('/same');
    await app.inject('/same');
    expect(first.json()).toEqual({ same: true });
    const ids = messages(lines).map((e) => e.requestId);
    expect(new Set(ids).size).toBe(2);
  });

  it('adds the trace id when a tracer gives one', async () => {
    const { app, lines } = testApp();
    const tracer: Tracer = { start: () => ({ ...NOOP_SPAN, traceId: 'trace-42' }) };
    app.setTracer(tracer);
    app.addRoutes(
      get('/traced', (c) => {
        c.log.info('inside');
        return {};
      }),
    );

    await app.inject('/traced');
    expect(messages(lines)[0]).toMatchObject({ message: 'inside', traceId: 'trace-42' });
  });

  it('writes no trace id without a tracer', async () => {
    const { app, lines } = testApp();
    app.addRoutes(
      get('/plain', (c) => {
        c.log.info('x');
        return {};
      }),
    );

    await app.inject('/plain');
    expect(messages(lines)[0]).not.toHaveProperty('traceId');
  });
});
