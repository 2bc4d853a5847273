// A request whose client hangs up before the answer still gets its one log line, with its path,
// duration and why: over a real socket on 127.0.0.1, the log kept in memory.
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { App, get, post } from '../../src/index.js';
import { memoryLogger, requestEntries } from '../app/helpers.js';
import { serve } from '../support/serve.js';

let app: App | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Sends `GET path`, waits until the handler has it, hangs up; resolves to the log's entries. */
async function leaveDuring(mode: 'signal' | 'late'): Promise<Record<string, unknown>[]> {
  const { logger, lines } = memoryLogger();
  app = new App({ serviceName: 'left', env: 'development', logger });
  const arrived = deferred();
  const noticed = deferred();
  const release = deferred();
  app.addRoutes(
    get('/slow/:id', async (c) => {
      c.signal.addEventListener('abort', noticed.resolve);
      arrived.resolve();
      // A handler that stops on its signal, as a cancelled query does, rejects; a late one
      // answers after the client has gone.
      if (mode === 'signal') await noticed.promise.then(() => Promise.reject(c.signal.reason));
      await release.promise;
      return { done: true };
    }),
  );
  const port = await serve(app);
  const socket = connect(port, '127.0.0.1');
  socket.write('GET /slow/7 HTTP/1.1\r\nHost: localhost\r\n\r\n');
  await arrived.promise;
  const closed = new Promise((r) => socket.once('close', r));
  socket.destroy();
  await closed;
  // The server has seen the connection close (it aborts c.signal): then the handler goes on.
  await noticed.promise;
  release.resolve();
  // close() waits for the request in flight: after it, every entry is written.
  await app.close();
  app = undefined;
  return requestEntries(lines);
}

describe('a client that hangs up before the answer', () => {
  for (const mode of ['signal', 'late'] as const) {
    it(`leaves one entry with its path, duration and why (handler: ${mode})`, async () => {
      const entries = await leaveDuring(mode);
      expect(entries).toEqual([
        expect.objectContaining({
          level: 'warn',
          method: 'GET',
          path: '/slow/7',
          status: 499,
          duration: expect.stringMatching(/^\d+(\.\d+)?ms$/),
          error: 'the client closed the connection before the answer',
        }),
      ]);
    });
  }

  it('mid-body, on a route without middleware: one entry under its route, with its duration', async () => {
    const { logger, lines } = memoryLogger();
    const routes: string[] = [];
    app = new App({ serviceName: 'left', env: 'development', logger });
    app.setMetricsCollector({ recordRequest: (m) => void routes.push(m.route) });
    app.addRoutes(post('/notes', { body: z.object({ text: z.string() }) }, (c) => c.body));
    const port = await serve(app);
    const socket = connect(port, '127.0.0.1');
    socket.write(
      'POST /notes HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        'Content-Length: 1000\r\n\r\n{"text":"',
    );
    await new Promise((resolve) => socket.once('ready', resolve));
    socket.end();
    await expect.poll(() => routes, { timeout: 2000 }).toEqual(['/notes']);
    const entries = requestEntries(lines);
    expect(entries).toEqual([
      expect.objectContaining({
        path: '/notes',
        status: 400,
        error: 'the client closed the connection before the end of the request body',
      }),
    ]);
    expect(Number.parseFloat(String(entries[0]?.duration))).toBeGreaterThan(0);
  });
});
