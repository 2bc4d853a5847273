import * as http from 'node:http';
import * as net from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { killAll, startLogProcess } from '../support/log-process.js';

const fixture = fileURLToPath(new URL('../fixtures/shutdown-app.ts', import.meta.url));
afterEach(killAll);

const DELAY_MS = 1_500;
const CONNECTIONS = 20;

interface Outcome {
  ok: boolean;
  at: number;
  error?: string;
}

function ping(
  agent: http.Agent,
  port: number,
  path = '/ping',
): Promise<Outcome & { status: number }> {
  return new Promise((resolve) => {
    http
      .get({ host: '127.0.0.1', port, path, agent }, (res) => {
        let body = '';
        res.on('data', (d) => {
          body += String(d);
        });
        res.on('end', () =>
          resolve({
            ok: res.statusCode === 200 && body === '{"pong":true}',
            status: res.statusCode ?? 0,
            at: Date.now(),
          }),
        );
        res.on('error', (err) =>
          resolve({ ok: false, status: 0, at: Date.now(), error: err.message }),
        );
      })
      .on('error', (err: NodeJS.ErrnoException) =>
        resolve({ ok: false, status: 0, at: Date.now(), error: err.code ?? err.message }),
      );
  });
}

function connect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const sock = net.connect(port, '127.0.0.1');
    sock.on('connect', () => {
      sock.destroy();
      resolve('connected');
    });
    sock.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
  });
}

describe('drainDelayMs (child process, SIGTERM under load)', () => {
  it('fails readiness at once, keeps serving every request through the delay, then stops accepting and exits 0', async () => {
    const s = startLogProcess(fixture, { DRAIN_DELAY_MS: String(DELAY_MS) });
    const port = await s.port;
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    const probes = new http.Agent({ keepAlive: false });
    expect((await ping(probes, port, '/health/ready')).status).toBe(200);

    const outcomes: Outcome[] = [];
    let signalledAt = Number.POSITIVE_INFINITY;
    // The load balancer's view: it keeps sending until just before the delay is over.
    const stopAt = () => signalledAt + DELAY_MS - 200;
    const worker = async () => {
      while (Date.now() < stopAt() && outcomes.length < 50_000)
        outcomes.push(await ping(agent, port));
    };
    const load = Promise.all(Array.from({ length: CONNECTIONS }, worker));
    while (outcomes.length < 200) await new Promise((r) => setImmediate(r));
    signalledAt = Date.now();
    s.child.kill('SIGTERM');
    await s.waitFor(/SIGTERM received/);
    const ready = await ping(probes, port, '/health/ready');
    const live = await ping(probes, port, '/health/live');
    await load;
    await s.waitFor(/shutdown hook ran/);
    const afterDelay = await connect(port);
    const { code, at } = await s.exit;
    agent.destroy();

    const failed = outcomes.filter((o) => !o.ok);
    const duringDelay = outcomes.filter((o) => o.at > signalledAt);
    console.log(
      `drain delay: ${outcomes.length} requests, ${duringDelay.length} answered after SIGTERM, ` +
        `${failed.length} failed; exit ${code} ${at - signalledAt} ms after SIGTERM`,
    );
    expect(ready.status).toBe(503);
    expect(live.status).toBe(200);
    expect(failed.map((o) => o.error)).toEqual([]);
    expect(duringDelay.length).toBeGreaterThan(100);
    expect(afterDelay).toBe('ECONNREFUSED');
    expect(code).toBe(0);
    expect(at - signalledAt).toBeGreaterThanOrEqual(DELAY_MS);
    expect(at - signalledAt).toBeLessThan(DELAY_MS + 3_000);
    expect(s.garbled).toEqual([]);
  });
});
