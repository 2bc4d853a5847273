import { afterEach, describe, expect, it } from 'vitest';
import { killAll, type ServiceProcess, startLogProcess } from '../support/log-process.js';

const fixture = new URL('./fixtures/cluster-service.ts', import.meta.url).pathname;

/** Resolves once `n` entries whose message matches `pattern` were logged. */
async function logged(proc: ServiceProcess, pattern: RegExp, n: number): Promise<void> {
  const count = () => proc.entries.filter((e) => pattern.test(String(e.message))).length;
  while (count() < n) {
    if (proc.child.exitCode !== null) throw new Error(`exited first; stderr: ${proc.stderr()}`);
    await new Promise((resolve) => proc.child.stdout!.once('data', resolve));
  }
}

/** Runs `total` GETs of `path`, `concurrency` at a time; resolves their statuses and bodies. */
async function load(base: string, path: string, total: number, concurrency: number) {
  const results: { status: number; body: string }[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        const res = await fetch(`${base}${path}`).catch((e: unknown) => ({
          status: 0,
          text: async () => String(e),
        }));
        results.push({ status: res.status, body: await res.text() });
      }
    }),
  );
  return results;
}

afterEach(() => killAll());

describe('keelson/cluster', () => {
  it('serves from 2 workers, sums their metrics, restarts a crashed one, and drains on SIGTERM with exit 0', async () => {
    const proc = startLogProcess(fixture);
    await logged(proc, /listening on/, 2);
    const ports = proc.entries
      .filter((e) => /listening on/.test(String(e.message)))
      .map((e) => Number(/:(\d+)/.exec(String(e.message))![1]));
    expect(new Set(ports).size).toBe(1); // the workers share the port
    const base = `http://127.0.0.1:${ports[0]}`;

    const sent = 200;
    const results = await load(base, '/work?ms=2', sent, 8);
    expect(results.filter((r) => r.status !== 200)).toEqual([]);
    expect(new Set(results.map((r) => JSON.parse(r.body).pid)).size).toBe(2);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toContain(
      `http_requests_total{method="GET",route="/work",status_code="200"} ${sent}`,
    );

    // Long lines from both workers at once still arrive whole.
    await load(base, '/noise', 8, 8);
    await logged(proc, /^noise /, 80);

    await fetch(`${base}/crash`);
    await logged(proc, /exited with code 3: restarting it in \d+ ms/, 1);
    await logged(proc, /listening on/, 3);
    // The crashed worker's requests still count: a summed counter never falls.
    const after = await (await fetch(`${base}/metrics`)).text();
    expect(after).toContain(
      `http_requests_total{method="GET",route="/work",status_code="200"} ${sent}`,
    );

    const inFlight = load(base, '/work?ms=400', 12, 12);
    await logged(proc, /slow work started/, 12);
    proc.child.kill('SIGTERM');
    const drained = await inFlight;
    expect(drained.filter((r) => r.status !== 200)).toEqual([]);
    const exit = await proc.exit;
    expect(exit.code).toBe(0);
    expect(proc.garbled).toEqual([]);
    expect(proc.entries.at(-1)?.message).toBe('cluster stopped (exit code 0)');
  }, 30_000);

  it('exits with the worst exit code of its workers', async () => {
    const proc = startLogProcess(fixture, { FAILING_HOOK: '1' });
    await logged(proc, /listening on/, 2);
    proc.child.kill('SIGTERM');
    const exit = await proc.exit;
    expect(exit.code).toBe(1);
    expect(
      proc.entries.filter((e) => /hook #1 \(failing\) failed/.test(String(e.message))),
    ).toHaveLength(2);
    expect(proc.entries.at(-1)?.message).toBe('cluster stopped (exit code 1)');
  });

  it('logs the primary in the format of its workers, not that of NODE_ENV', async () => {
    const proc = startLogProcess(fixture, { DEFAULT_PRIMARY_LOGGER: '1', NODE_ENV: '' });
    await logged(proc, /listening on/, 2);
    proc.child.kill('SIGTERM');
    expect((await proc.exit).code).toBe(0);
    expect(proc.garbled).toEqual([]);
    const primary = proc.entries
      .map((e) => String(e.message))
      .filter((m) => /^(cluster |SIGTERM received: stopping)/.test(m));
    expect(primary).toEqual([
      expect.stringMatching(/^cluster primary \d+: starting 2 workers$/),
      'SIGTERM received: stopping 2 workers',
      'cluster stopped (exit code 0)',
    ]);
  });
});
