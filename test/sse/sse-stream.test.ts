import { getEventListeners } from 'node:events';
import type { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { eventStream, get, type ServerSentEvent } from '../../src/index.js';
import { sendEventStream } from '../../src/sse/index.js';
import { testApp } from '../app/helpers.js';

// sendEventStream driven directly: a stand-in for the request's context, signals the test
// aborts, and the stream it returns read to its end.

function target(signal: AbortSignal) {
  const warnings: unknown[][] = [];
  const headers: Record<string, string> = {};
  const c = {
    request: { method: 'GET', url: '/events' },
    reply: {
      header(name: string, value: string) {
        headers[name] = value;
        return this;
      },
    },
    signal,
    log: { warn: (...args: unknown[]) => void warnings.push(args) },
  };
  return { c: c as never, warnings, headers };
}

function runtime(shutdown = new AbortController().signal) {
  return { shutdownBegun: shutdown } as never;
}

async function text(stream: unknown): Promise<string> {
  let out = '';
  for await (const chunk of stream as PassThrough) out += String(chunk);
  return out;
}

/** Yields `events`, then waits until `release` is called; records whether return() ran. */
function source(events: ServerSentEvent[]) {
  const state = { returned: false, pulled: 0 };
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  async function* gen() {
    try {
      for (const e of events) {
        state.pulled++;
        yield e;
      }
      await held;
    } finally {
      state.returned = true;
    }
  }
  return { it: gen(), state, release: () => release() };
}

describe('sendEventStream refuses', () => {
  it('a source that is not async iterable, saying what it got', () => {
    const { c } = target(new AbortController().signal);
    expect(() => sendEventStream(c, runtime(), 'ticks' as never)).toThrow(
      new TypeError('c.sse() needs an async iterable of events, got string'),
    );
  });

  it('a heartbeat that is not a number above 0', () => {
    const { c } = target(new AbortController().signal);
    for (const heartbeatMs of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => sendEventStream(c, runtime(), source([]).it, { heartbeatMs })).toThrow(
        new TypeError(`heartbeatMs must be a number > 0, got ${String(heartbeatMs)}`),
      );
    }
  });
});

describe('sendEventStream streams', () => {
  it('with headers that keep proxies from buffering or transforming it', async () => {
    const { c, headers } = target(new AbortController().signal);
    const s = source([{ data: 1 }]);
    const stream = sendEventStream(c, runtime(), s.it);
    s.release();
    expect(await text(stream)).toBe(': stream open\n\ndata: 1\n\n');
    expect(headers).toEqual({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    });
  });

  it('nothing of a source when the client is already gone', async () => {
    const { c, warnings } = target(AbortSignal.abort());
    const s = source([{ data: 1 }]);
    expect(await text(sendEventStream(c, runtime(), s.it))).toBe(': stream open\n\n');
    expect(warnings).toEqual([]);
  });

  it('nothing of a source when shutdown has already begun', async () => {
    const { c } = target(new AbortController().signal);
    const s = source([{ data: 1 }]);
    expect(await text(sendEventStream(c, runtime(AbortSignal.abort()), s.it))).toBe(
      ': stream open\n\n',
    );
  });

  it('until the client goes: then it ends quietly, returns the source and drops its listeners', async () => {
    const client = new AbortController();
    const shutdown = new AbortController();
    const { c, warnings } = target(client.signal);
    const s = source([{ data: 1 }]);
    const stream = sendEventStream(c, runtime(shutdown.signal), s.it);
    const read = text(stream);
    while (s.state.pulled < 1) await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    client.abort();
    expect(await read).toBe(': stream open\n\ndata: 1\n\n');
    expect(warnings).toEqual([]);
    expect(getEventListeners(client.signal, 'abort')).toHaveLength(0);
    expect(getEventListeners(shutdown.signal, 'abort')).toHaveLength(0);
    s.release();
    await new Promise((r) => setImmediate(r));
    expect(s.state.returned).toBe(true);
  });

  it('to the end of a finite source without a warning', async () => {
    const { c, warnings } = target(new AbortController().signal);
    async function* two() {
      yield { data: 'a' };
      yield { data: 'b' };
    }
    expect(await text(sendEventStream(c, runtime(), two()))).toBe(
      ': stream open\n\ndata: a\n\ndata: b\n\n',
    );
    expect(warnings).toEqual([]);
  });

  it('and ends when the client goes, from a source whose iterator has no return()', async () => {
    const client = new AbortController();
    const { c } = target(client.signal);
    const iterable = {
      [Symbol.asyncIterator]: () => ({ next: () => new Promise<never>(() => {}) }),
    };
    const stream = sendEventStream(c, runtime(), iterable as never);
    const read = text(stream);
    client.abort();
    expect(await read).toBe(': stream open\n\n');
  });

  it('and ends with a warning naming the path when an event cannot be written', async () => {
    const { c, warnings } = target(new AbortController().signal);
    async function* bad() {
      yield { data: undefined };
    }
    expect(await text(sendEventStream(c, runtime(), bad()))).toBe(': stream open\n\n');
    expect(warnings).toEqual([
      [
        'event stream %s ended by an error: %s',
        '/events',
        expect.stringMatching(/^TypeError: an event needs data that JSON can encode/),
      ],
    ]);
  });
});

describe('sendEventStream with a source that cannot make its iterator', () => {
  it('ends the stream with a warning and leaves no listener or timer behind', async () => {
    const client = new AbortController();
    const shutdown = new AbortController();
    const { c, warnings } = target(client.signal);
    const source = {
      [Symbol.asyncIterator]() {
        throw new Error('no cursor');
      },
    };
    const stream = sendEventStream(c, runtime(shutdown.signal), source as never, {
      heartbeatMs: 1,
    });
    expect(await text(stream)).toBe(': stream open\n\n');
    expect(warnings).toEqual([
      [
        'event stream %s ended by an error: %s',
        '/events',
        expect.stringMatching(/^Error: no cursor/),
      ],
    ]);
    expect(getEventListeners(client.signal, 'abort')).toHaveLength(0);
    expect(getEventListeners(shutdown.signal, 'abort')).toHaveLength(0);
  });
});

describe('eventStream', () => {
  it('describes the stream by default', async () => {
    const { app } = testApp();
    app.addRoutes(get('/ticks', { responses: { 200: eventStream() } }, () => 'x'));
    const doc = JSON.stringify(await app.openapi());
    expect(doc).toContain('"description":"A stream of server-sent events."');
  });
});
