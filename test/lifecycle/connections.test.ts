import { EventEmitter } from 'node:events';
import type { Server, ServerResponse } from 'node:http';
import * as http from 'node:http';
import * as net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectionTracker } from '../../src/lifecycle/index.js';
import { cutOffReason } from '../../src/request/cut-off.js';
import { memoryLogger } from '../app/helpers.js';

// The tracker reads what Node keeps on a connection: the response it serves (`_httpMessage`),
// its HTTP parser (null once upgraded), and its write counters. These stand-ins let a fake
// clock drive the send-timeout sweep; the real-socket tests below check the same fields on Node.
class FakeResponse extends EventEmitter {
  headersSent = false;
  writableFinished = false;
  statusCode = 200;
}

class FakeSocket {
  destroyed = false;
  destroyCalls = 0;
  writableLength = 0;
  bytesWritten = 0;
  remoteAddress: string | undefined = '10.1.2.3';
  remotePort: number | undefined = 4567;
  parser: unknown = {};
  _httpMessage: FakeResponse | null = null;
  destroy() {
    this.destroyCalls++;
    this.destroyed = true;
  }
  /** A response being sent, `pending` bytes of it not yet taken by the client. */
  sending(pending: number, written = pending) {
    this.writableLength = pending;
    this.bytesWritten = written;
    return this;
  }
  serving(res: FakeResponse) {
    this._httpMessage = res;
    return this;
  }
}

function tracked(sendTimeoutMs = 400) {
  const server = new EventEmitter() as EventEmitter & { closeIdleConnections?: () => void };
  const { logger, lines } = memoryLogger();
  const tracker = new ConnectionTracker(server as unknown as Server, { sendTimeoutMs, logger });
  const connect = (socket = new FakeSocket()) => {
    server.emit('connection', socket);
    return socket;
  };
  const messages = () => lines.map((l) => String((JSON.parse(l) as { message?: unknown }).message));
  return { server, tracker, connect, messages };
}

const asResponse = (res: FakeResponse) => res as unknown as ServerResponse;

afterEach(() => {
  vi.useRealTimers();
});

describe('ConnectionTracker.closeIdle', () => {
  it('replaces the server’s closeIdleConnections, destroying only idle HTTP connections', () => {
    const { server, tracker, connect } = tracked();
    const idle = connect();
    const upgraded = connect();
    upgraded.parser = null;
    const answering = connect().serving(new FakeResponse());
    const flushing = connect().sending(10);
    server.closeIdleConnections?.();
    expect(idle.destroyed).toBe(true);
    expect(upgraded.destroyed).toBe(false);
    expect(answering.destroyed).toBe(false);
    expect(flushing.destroyed).toBe(false);
    tracker.stop();
  });

  it('leaves a connection already destroyed alone', () => {
    const { tracker, connect } = tracked();
    const gone = connect();
    gone.destroy();
    tracker.closeIdle();
    expect(gone.destroyCalls).toBe(1);
    tracker.stop();
  });
});

describe('ConnectionTracker.open', () => {
  it('counts the connections not yet destroyed', () => {
    const { tracker, connect } = tracked();
    const a = connect();
    connect();
    expect(tracker.open).toBe(2);
    a.destroy();
    expect(tracker.open).toBe(1);
    tracker.stop();
  });
});

describe('ConnectionTracker.cutUnanswered', () => {
  it('cuts only the requests with no answer started, logging them as 503 cut off before an answer', () => {
    const { tracker, connect } = tracked();
    const waiting = new FakeResponse();
    const errors: Error[] = [];
    waiting.on('error', (err: Error) => errors.push(err));
    const unanswered = connect().serving(waiting);
    const answered = new FakeResponse();
    answered.headersSent = true;
    const sending = connect().serving(answered).sending(100);
    const idle = connect();
    const gone = connect().serving(new FakeResponse());
    gone.destroy();

    expect(tracker.cutUnanswered('too slow')).toBe(1);
    expect(unanswered.destroyed).toBe(true);
    expect(waiting.statusCode).toBe(503);
    expect(cutOffReason(asResponse(waiting))).toBe('request cut off before an answer: too slow');
    expect(errors.map((e) => e.message)).toEqual(['request cut off before an answer: too slow']);
    expect(sending.destroyed).toBe(false);
    expect(idle.destroyed).toBe(false);
    expect(gone.destroyCalls).toBe(1);
    expect(cutOffReason(asResponse(answered))).toBeUndefined();
    tracker.stop();
  });
});

describe('ConnectionTracker.cutAll', () => {
  it('cuts every open connection, saying how much of a response was still pending', () => {
    const { tracker, connect } = tracked();
    const pendingRes = new FakeResponse();
    pendingRes.headersSent = true;
    const pending = connect().serving(pendingRes).sending(1234);
    const lastRes = new FakeResponse();
    lastRes.headersSent = true;
    connect().serving(lastRes);
    const doneRes = new FakeResponse();
    doneRes.headersSent = true;
    doneRes.writableFinished = true;
    connect().serving(doneRes).sending(10);
    const idle = connect();
    const gone = connect();
    gone.destroy();

    // No 'error' listener on these responses: emitting one would throw.
    expect(tracker.cutAll('deadline')).toBe(4);
    expect(pending.destroyed && idle.destroyed).toBe(true);
    expect(gone.destroyCalls).toBe(1);
    expect(cutOffReason(asResponse(pendingRes))).toBe(
      'response cut off: deadline (1234 bytes pending)',
    );
    expect(cutOffReason(asResponse(lastRes))).toBe('response cut off: deadline');
    expect(pendingRes.statusCode).toBe(200);
    // A response sent in full is not marked: its log entry is already right.
    expect(cutOffReason(asResponse(doneRes))).toBeUndefined();
    tracker.stop();
  });
});

describe('the send-timeout sweep (fake clock)', () => {
  it('sweeps every quarter of the send timeout and drops a client stalled for the whole timeout', async () => {
    vi.useFakeTimers();
    // Sweeps every 100 ms; the stall is first seen at 100, so the drop comes at 500.
    const { tracker, connect, messages } = tracked(400);
    const stalled = connect().sending(5_000, 8_000);
    await vi.advanceTimersByTimeAsync(499);
    expect(stalled.destroyed).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(stalled.destroyed).toBe(true);
    expect(messages()).toEqual([
      'send timeout: dropped 10.1.2.3:4567, which took no byte for 400 ms (5000 bytes pending)',
    ]);
    tracker.stop();
  });

  it('rounds the sweep’s period down', async () => {
    vi.useFakeTimers();
    // 402 / 4 → every 100 ms: first seen at 100, dropped at the first sweep ≥ 502, at 600.
    const { tracker, connect } = tracked(402);
    const stalled = connect().sending(10);
    await vi.advanceTimersByTimeAsync(599);
    expect(stalled.destroyed).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(stalled.destroyed).toBe(true);
    tracker.stop();
  });

  it('sweeps at most every second for a long send timeout', async () => {
    vi.useFakeTimers();
    // Every 1000 ms: first seen at 1000, dropped at 9000.
    const { tracker, connect } = tracked(8_000);
    const stalled = connect().sending(10);
    await vi.advanceTimersByTimeAsync(8_999);
    expect(stalled.destroyed).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(stalled.destroyed).toBe(true);
    tracker.stop();
  });

  it('sweeps at least 10 ms apart for a tiny send timeout', async () => {
    vi.useFakeTimers();
    // Every 10 ms: first seen at 10, dropped at 20.
    const { tracker, connect } = tracked(8);
    const stalled = connect().sending(10);
    await vi.advanceTimersByTimeAsync(19);
    expect(stalled.destroyed).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(stalled.destroyed).toBe(true);
    tracker.stop();
  });

  it('keeps a client that takes bytes, however slowly, and restarts its clock at each byte', async () => {
    vi.useFakeTimers();
    const { tracker, connect } = tracked(400);
    const slow = connect().sending(5_000, 8_000);
    for (let i = 0; i < 20; i++) {
      await vi.advanceTimersByTimeAsync(300);
      // One byte taken: pending goes down while nothing new is written.
      slow.writableLength--;
    }
    expect(slow.destroyed).toBe(false);
    // Then it stops reading: dropped within the timeout plus one sweep.
    await vi.advanceTimersByTimeAsync(499);
    expect(slow.destroyed).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(slow.destroyed).toBe(true);
    tracker.stop();
  });

  it('drops a client that reads nothing while the server keeps writing to it (a stream)', async () => {
    vi.useFakeTimers();
    const { tracker, connect } = tracked(400);
    const stream = connect().sending(100, 100);
    const writer = setInterval(
      () => stream.sending(stream.writableLength + 50, stream.bytesWritten + 50),
      30,
    );
    await vi.advanceTimersByTimeAsync(499);
    expect(stream.destroyed).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(stream.destroyed).toBe(true);
    clearInterval(writer);
    tracker.stop();
  });

  it('never drops an idle connection, whose write counter stands still', async () => {
    vi.useFakeTimers();
    const { tracker, connect } = tracked(400);
    const idle = connect().sending(0, 700);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(idle.destroyed).toBe(false);
    tracker.stop();
  });

  it('times a stall anew after the connection has drained in between', async () => {
    vi.useFakeTimers();
    const { tracker, connect } = tracked(400);
    // Stalled at 100..300 with 0 bytes taken, then drained, then stalled again at the same count.
    const socket = connect().sending(100, 100);
    await vi.advanceTimersByTimeAsync(300);
    socket.sending(0, 0);
    await vi.advanceTimersByTimeAsync(100);
    socket.sending(100, 100);
    // Seen stalled again from 500: not dropped before 900.
    await vi.advanceTimersByTimeAsync(499);
    expect(socket.destroyed).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    expect(socket.destroyed).toBe(true);
    tracker.stop();
  });

  it('names a client whose address is gone, and logs nothing itself for one with a response', async () => {
    vi.useFakeTimers();
    const { tracker, connect, messages } = tracked(400);
    const anonymous = connect().sending(3);
    anonymous.remoteAddress = undefined;
    anonymous.remotePort = undefined;
    const res = new FakeResponse();
    res.headersSent = true;
    const errors: Error[] = [];
    res.on('error', (err: Error) => errors.push(err));
    const answering = connect().serving(res).sending(7);
    await vi.advanceTimersByTimeAsync(500);
    expect(anonymous.destroyed && answering.destroyed).toBe(true);
    expect(messages()).toEqual([
      'send timeout: dropped a client:?, which took no byte for 400 ms (3 bytes pending)',
    ]);
    const why =
      'response cut off: send timeout: the client took no byte for 400 ms (7 bytes pending)';
    expect(cutOffReason(asResponse(res))).toBe(why);
    expect(errors.map((e) => e.message)).toEqual([why]);
    tracker.stop();
  });

  it('stops sweeping when stopped', async () => {
    vi.useFakeTimers();
    const { tracker, connect } = tracked(400);
    const stalled = connect().sending(10);
    tracker.stop();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(stalled.destroyed).toBe(false);
  });
});

describe('ConnectionTracker on a real server (127.0.0.1)', () => {
  it('does not keep the process alive with its sweep timer', () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const { logger } = memoryLogger();
    const tracker = new ConnectionTracker(http.createServer(), { sendTimeoutMs: 1_000, logger });
    expect(timers()).toBe(before);
    tracker.stop();
  });

  it('sees the real connections, and the response a connection is serving', async () => {
    const { logger } = memoryLogger();
    let release: (() => void) | undefined;
    const server = http.createServer((_req, res) => {
      release = () => res.end('done');
    });
    const tracker = new ConnectionTracker(server, { sendTimeoutMs: 60_000, logger });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as net.AddressInfo;
    const idle = net.connect(port, '127.0.0.1');
    const busy = net.connect(port, '127.0.0.1');
    const closed = (s: net.Socket) => new Promise<void>((r) => s.on('close', () => r()));
    const idleClosed = closed(idle);
    await new Promise((r) => idle.once('connect', r));
    const arrived = new Promise((r) => server.once('request', r));
    busy.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await arrived;
    expect(tracker.open).toBe(2);
    // The idle one goes; the one waiting for its handler stays.
    server.closeIdleConnections();
    await idleClosed;
    expect(tracker.open).toBe(1);
    let text = '';
    busy.on('data', (d) => {
      text += String(d);
    });
    const busyClosed = closed(busy);
    release?.();
    while (!text.endsWith('done')) await new Promise((r) => busy.once('data', r));
    // Answered: now idle, so the next close of idle connections takes it.
    server.closeIdleConnections();
    await busyClosed;
    expect(tracker.open).toBe(0);
    tracker.stop();
    await new Promise((r) => server.close(r));
  });
});
