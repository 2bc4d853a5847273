import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { recordRequest } from '../../src/engine/hooks.js';
import type { MetricsCollector } from '../../src/extend/index.js';
import { markCutOff } from '../../src/request/cut-off.js';
import type { RequestObserver } from '../../src/routing/runtime.js';
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

  it("writes the shutdown's cut-off mark as the entry's error, over the stream's guess", () => {
    const { logger, lines } = memoryLogger();
    const { request, reply } = exchange(200);
    markCutOff(reply.raw, 'cut off by the shutdown');
    const answers = { runtime: { logger, metrics: undefined }, requestIdHeader: undefined };
    recordRequest({ ...answers, trustProxy: false }, request, reply, 'the client left');
    expect(requestEntries(lines)).toMatchObject([{ error: 'cut off by the shutdown' }]);
  });

  it('logs a warning naming the failure when the metrics collector throws', () => {
    const { logger, lines } = memoryLogger();
    const metrics: MetricsCollector = {
      recordRequest() {
        throw new Error('collector down');
      },
    };
    const { request, reply } = exchange(200);
    recordRequest(
      { runtime: { logger, metrics }, requestIdHeader: undefined, trustProxy: false },
      request,
      reply,
    );
    expect(requestEntries(lines)).toHaveLength(1);
    const warning = lines.map((l) => JSON.parse(l)).find((e) => e.level === 'warn');
    expect(warning?.message).toMatch(/^metrics collector failed: .*collector down/);
  });
});

describe('request observers', () => {
  function observed(observers: RequestObserver[], span: { end(): void } | null = null) {
    const { logger, lines } = memoryLogger();
    const records: unknown[] = [];
    const metrics = { recordRequest: (r: unknown) => records.push(r) } as MetricsCollector;
    const { request, reply } = exchange(200);
    (request as { keelsonSpan: unknown }).keelsonSpan = span;
    const answers = {
      runtime: { logger, metrics, observers },
      requestIdHeader: 'x-request-id',
      trustProxy: false,
    };
    recordRequest(answers, request, reply);
    return { entries: requestEntries(lines), records };
  }

  it('tells every observer of the entry, then logs and counts it', () => {
    const seen: string[] = [];
    const { entries, records } = observed([
      (e) => {
        seen.push(`a ${e.path}`);
        return false;
      },
      (e) => {
        seen.push(`b ${e.status}`);
        return 'yes' as never;
      },
    ]);
    expect(seen).toEqual(['a /feed', 'b 200']);
    expect(entries).toHaveLength(1);
    expect(records).toHaveLength(1);
  });

  it('keeps the request quiet when one observer returns true, ending its span', () => {
    let ended = 0;
    const span = { end: () => ended++ };
    const quiet = observed([() => true, () => false], span);
    expect([quiet.entries, quiet.records, ended]).toEqual([[], [], 1]);
    const spanless = observed([() => false, () => true]);
    expect([spanless.entries, spanless.records]).toEqual([[], []]);
  });

  it('logs the request when an observer throws', () => {
    const { entries, records } = observed([
      () => {
        throw new Error('panel broke');
      },
    ]);
    expect([entries.length, records.length]).toEqual([1, 1]);
  });
});
