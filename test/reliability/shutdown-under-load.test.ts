import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { addFigures } from './figures.js';
import { runLoad, type Sent } from './load.js';
import { killAll, startService } from './service-process.js';

const ROUNDS = 5;
const CONNECTIONS = 200;
const dir = mkdtempSync(join(tmpdir(), 'keelson-reliability-'));
afterEach(killAll);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Connects once: 'refused', or 'connected' (the socket is closed again at once). */
function probe(port: number): Promise<string> {
  return new Promise((resolve) => {
    const sock = net.connect(port, '127.0.0.1');
    sock.on('connect', () => {
      sock.destroy();
      resolve('connected');
    });
    sock.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
  });
}

describe(`graceful shutdown under load (${ROUNDS} rounds, ${CONNECTIONS} keep-alive connections)`, () => {
  for (let round = 1; round <= ROUNDS; round++) {
    it(`round ${round}: answers every request it read in full, refuses new connections, runs the hooks in order and exits 0 within 10 s`, async ({
      task,
    }) => {
      const receivedFile = join(dir, `received-${round}.json`);
      const service = startService({ RELIABILITY_RECEIVED_FILE: receivedFile });
      const port = await service.port;
      const load = runLoad({
        port,
        connections: CONNECTIONS,
        maxRequests: 40_000,
        maxMs: 20_000,
        tag: `r${round}`,
      });
      // Steady state first: every connection open and busy.
      const loadStart = Date.now();
      while (load.completed() < 1_500 && Date.now() - loadStart < 10_000) {
        await new Promise((r) => setTimeout(r, 20));
      }
      const signalledAt = Date.now();
      service.child.kill('SIGTERM');
      await service.waitFor(/SIGTERM received/);
      // New connections: refused once the listener is closed, which follows the signal at once.
      let refusedAfterMs = -1;
      while (Date.now() - signalledAt < 2_000) {
        if ((await probe(port)) === 'ECONNREFUSED') {
          refusedAfterMs = Date.now() - signalledAt;
          break;
        }
        await new Promise((r) => setTimeout(r, 10));
      }
      const exit = await service.exit;
      load.stop();
      const sent: Sent[] = await load.done;

      const received = new Set(JSON.parse(readFileSync(receivedFile, 'utf8')) as string[]);
      const byOutcome = (o: Sent['outcome']) => sent.filter((s) => s.outcome === o);
      const lost = sent.filter((s) => received.has(s.id) && s.outcome !== 'complete');
      const truncated = byOutcome('truncated');
      const unread = byOutcome('no-response').filter((s) => !received.has(s.id));
      const logged = new Set(
        service.entries
          .filter((e) => typeof e.path === 'string' && e.status === 200)
          .map((e) => String(e.path).slice('/work/'.length)),
      );
      const logLinesLost = [...received].filter((id) => !logged.has(id)).length;
      const hooks = service.entries
        .map((e) => String(e.message ?? ''))
        .filter((m) => m.startsWith('shutdown hook'));
      const serverErrors = sent.filter((s) => (s.status ?? 0) >= 500).length;

      addFigures(task.meta, {
        requestsSent: sent.length,
        failures: lost.length + truncated.length,
        serverErrors,
        logLinesLost,
      });
      console.log(
        `round ${round}: ${sent.length} sent, ${received.size} read by the server, ` +
          `${byOutcome('complete').length} complete, ${truncated.length} truncated, ` +
          `${lost.length} read but not answered in full, ${unread.length} reset before the server read them, ` +
          `${byOutcome('refused').length} refused; listener closed ${refusedAfterMs} ms after SIGTERM, ` +
          `exit ${exit.code} after ${exit.at - signalledAt} ms; ${logLinesLost} log lines lost`,
      );

      expect(received.size).toBeGreaterThan(1_500);
      expect(lost.map((s) => `${s.id}: ${s.outcome} ${s.error ?? ''}`)).toEqual([]);
      expect(truncated).toEqual([]);
      expect(serverErrors).toBe(0);
      expect(refusedAfterMs).toBeGreaterThanOrEqual(0);
      expect(hooks).toEqual(['shutdown hook 1 ran', 'shutdown hook 2 ran', 'shutdown hook 3 ran']);
      expect(exit.code).toBe(0);
      expect(exit.at - signalledAt).toBeLessThan(10_000);
      expect(logLinesLost).toBe(0);
      expect(service.garbled).toEqual([]);
    });
  }
});
