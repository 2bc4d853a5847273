import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WebSocket } from 'ws';
import { startHeartbeat } from '../../src/websocket/heartbeat.js';
import { Inbox, PAUSE_BYTES } from '../../src/websocket/inbox.js';

// The Inbox and the heartbeat driven directly, with a stand-in for the socket.

function fakeSocket() {
  const socket = Object.assign(new EventEmitter(), {
    readyState: 1,
    pauses: 0,
    resumes: 0,
    pings: 0,
    pause() {
      socket.pauses++;
    },
    resume() {
      socket.resumes++;
    },
    ping() {
      socket.pings++;
    },
  });
  return socket;
}

/** Jobs that wait until released, in order. */
function heldJobs() {
  const releases: (() => void)[] = [];
  const ran: number[] = [];
  const job = (n: number) => () =>
    new Promise<void>((resolve) => {
      ran.push(n);
      releases.push(resolve);
    });
  const releaseOne = async () => {
    releases.shift()?.();
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { job, ran, releaseOne };
}

describe('Inbox', () => {
  it('pauses reading once maxQueued messages wait, and resumes once half of them are handled', async () => {
    const socket = fakeSocket();
    const overflow = vi.fn();
    const inbox = new Inbox(socket, 4, overflow);
    const { job, ran, releaseOne } = heldJobs();
    for (let n = 0; n < 5; n++) inbox.push(job(n), 10);
    // One being handled, four waiting.
    expect(ran).toEqual([0]);
    expect(inbox.waiting).toBe(4);
    expect(socket.pauses).toBe(1);
    expect(inbox.paused).toBe(true);
    await releaseOne();
    expect(socket.resumes).toBe(0);
    await releaseOne();
    // Two waiting: half of maxQueued.
    expect(inbox.waiting).toBe(2);
    expect(socket.resumes).toBe(1);
    expect(inbox.paused).toBe(false);
    expect(overflow).not.toHaveBeenCalled();
  });

  it('pauses once the waiting messages hold PAUSE_BYTES, however few they are', () => {
    const socket = fakeSocket();
    const inbox = new Inbox(socket, 64, () => {});
    const { job } = heldJobs();
    inbox.push(job(0), PAUSE_BYTES);
    inbox.push(job(1), PAUSE_BYTES / 2);
    expect(socket.pauses).toBe(0);
    inbox.push(job(2), PAUSE_BYTES / 2);
    expect(socket.pauses).toBe(1);
  });

  it('calls overflow for a message past maxQueued, drops what waits and reads again', async () => {
    const socket = fakeSocket();
    const overflow = vi.fn();
    const inbox = new Inbox(socket, 2, overflow);
    const { job, ran, releaseOne } = heldJobs();
    for (let n = 0; n < 4; n++) inbox.push(job(n), 1);
    expect(overflow).toHaveBeenCalledTimes(1);
    expect(inbox.waiting).toBe(0);
    expect(socket.resumes).toBe(1);
    socket.readyState = 2;
    await releaseOne();
    expect(ran).toEqual([0]);
  });

  it('drops a message that arrives once the connection is closing, and what waits when it starts closing', async () => {
    const socket = fakeSocket();
    const inbox = new Inbox(socket, 8, () => {});
    const { job, ran, releaseOne } = heldJobs();
    inbox.push(job(0), 1);
    inbox.push(job(1), 1);
    socket.readyState = 2;
    inbox.push(job(2), 1);
    expect(inbox.waiting).toBe(1);
    await releaseOne();
    expect(inbox.waiting).toBe(0);
    await inbox.idle();
    expect(ran).toEqual([0]);
  });

  it('resolves idle() once the message being handled is done, and at once when none is', async () => {
    const inbox = new Inbox(fakeSocket(), 8, () => {});
    await inbox.idle();
    const { job, releaseOne } = heldJobs();
    inbox.push(job(0), 1);
    let idle = false;
    const waiting = inbox.idle().then(() => {
      idle = true;
    });
    await Promise.resolve();
    expect(idle).toBe(false);
    await releaseOne();
    await waiting;
    expect(idle).toBe(true);
  });
});

describe('startHeartbeat', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('pings every interval and gives up a peer silent for a whole interval', () => {
    vi.useFakeTimers();
    const socket = fakeSocket();
    const silent = vi.fn();
    startHeartbeat(socket as unknown as WebSocket, 100, () => false, silent);
    vi.advanceTimersByTime(100);
    expect(socket.pings).toBe(1);
    socket.emit('pong');
    vi.advanceTimersByTime(100);
    expect(socket.pings).toBe(2);
    // A message is as good a sign of life as a pong.
    socket.emit('message');
    vi.advanceTimersByTime(100);
    expect(socket.pings).toBe(3);
    expect(silent).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100);
    expect(silent).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1_000);
    expect(silent).toHaveBeenCalledTimes(1);
    expect(socket.pings).toBe(3);
  });

  it('gives no verdict while the server has paused reading, and starts afresh after', () => {
    vi.useFakeTimers();
    const socket = fakeSocket();
    const silent = vi.fn();
    let paused = false;
    startHeartbeat(socket as unknown as WebSocket, 100, () => paused, silent);
    vi.advanceTimersByTime(100);
    expect(socket.pings).toBe(1);
    paused = true;
    vi.advanceTimersByTime(500);
    paused = false;
    vi.advanceTimersByTime(100);
    expect(silent).not.toHaveBeenCalled();
    expect(socket.pings).toBe(2);
    vi.advanceTimersByTime(100);
    expect(silent).toHaveBeenCalledTimes(1);
  });

  it('stops pinging and listening once stopped', () => {
    vi.useFakeTimers();
    const socket = fakeSocket();
    const stop = startHeartbeat(
      socket as unknown as WebSocket,
      100,
      () => false,
      () => {},
    );
    stop();
    vi.advanceTimersByTime(500);
    expect(socket.pings).toBe(0);
    expect(socket.listenerCount('pong') + socket.listenerCount('message')).toBe(0);
  });
});
