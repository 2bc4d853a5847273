import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { recordRequest } from '../../src/http/hooks.js';
import type { MetricsCollector } from '../../src/index.js';
import { memoryLogger, requestEntries } from '../app/helpers.js';

// recordRequest is called from the engine's onResponse hook and from the stream watcher; both
// may fire for one response cut off at shutdown.
function exchange(status: number, error: unknown = null) {
  const request = {
    method: 'GET',
    url: '/feed?x=1',
    id: 'req-1',
    ip: '10.0.0.1',
    keelsonError: error,
    keelsonRecorded: false,
    keelsonRoute: '/feed',
  } as unknown as FastifyRequest;
  const reply = { statusCode: status, elapsedTime: 3, raw: {} } as unknown as FastifyReply;
  return { request, reply };
}

describe('recordRequest', () => {
  it('writes one entry and one metrics record for a response reported twice', () => {
    const { logger, lines } = memoryLogger();
    const records: unknown[] = [];
    const metrics = { recordRequest: (r: unknown) => records.push(r) } as MetricsCollector;
    const { request, reply } = exchange(200);
    const answers = {
      runtime: { logger, metrics },
      requestIdHeader: 'x-request-id',
      trustProxy: false,
    };
    recordRequest(answers, request, reply, 'the client left');
    recordRequest(answers, request, reply, 'the client left');
    expect(requestEntries(lines)).toEqual([
      expect.objectContaining({
        path: '/feed',
        status: 200,
        requestId: 'req-1',
        error: 'the client left',
      }),
    ]);
    expect(records).toEqual([{ method: 'GET', route: '/feed', statusCode: 200, durationMs: 3 }]);
  });

  it('puts the error in the entry of a 5xx only', () => {
    const { logger, lines } = memoryLogger();
    const failure = new Error('socket handler failed');
    const four = exchange(101, failure);
    const answers = {
      runtime: { logger, metrics: undefined },
      requestIdHeader: undefined,
      trustProxy: true,
    };
    recordRequest(answers, four.request, four.reply);
    const five = exchange(500, failure);
    recordRequest(answers, five.request, five.reply);
    const [first, second] = requestEntries(lines);
    expect(first).toMatchObject({ level: 'info', status: 101, ip: '10.0.0.1' });
    expect(first).not.toHaveProperty('error');
    expect(first).not.toHaveProperty('requestId');
    expect(second).toMatchObject({ level: 'error', status: 500 });
    expect(String(second?.error)).toContain('socket handler failed');
  });
});
