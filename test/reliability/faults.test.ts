import * as http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { addFigures } from './figures.js';
import { killAll, type ServiceProcess, startService } from './service-process.js';

afterEach(killAll);

interface Answer {
  status: number;
  body: string;
  ms: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });

function call(port: number, path: string): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent }, (res) => {
        let body = '';
        res.on('data', (d) => {
          body += String(d);
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body, ms: performance.now() - started }),
        );
      })
      .on('error', reject);
  });
}

/** Sends `count` requests to `path`, `width` at a time. */
async function hammer(port: number, path: (i: number) => string, count: number, width: number) {
  const answers: Answer[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) answers.push(await call(port, path(next++)));
  };
  await Promise.all(Array.from({ length: width }, worker));
  return answers;
}

const messages = (s: ServiceProcess) => s.entries.map((e) => String(e.message ?? ''));

describe('faults: misbehaving checkers, handlers and background work, a slow log reader', () => {
  it('keeps answering through checkers that hang, throw, reject with non-Errors or outlive their timeout', async ({
    task,
  }) => {
    const s = startService();
    const port = await s.port;
    const started = performance.now();
    const answers = await hammer(port, () => '/health', 40, 10);
    const elapsed = performance.now() - started;
    const live = await call(port, '/health/live');
    addFigures(task.meta, { requestsSent: answers.length + 1 });

    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([503]));
    // Each round of checks ends at the 200 ms timeout, not when the hanging checker would.
    expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(2_000);
    expect(elapsed).toBeLessThan(10_000);
    expect(JSON.parse(answers[0]!.body).checks).toEqual({
      hangs: 'DOWN: timed out after 200 ms',
      'throws-sync': 'DOWN: sync failure',
      'rejects-undefined': 'DOWN: undefined',
      'rejects-number': 'DOWN: 42',
      'rejects-unprintable': 'DOWN: check failed',
      'outlives-timeout': 'DOWN: timed out after 200 ms',
      fine: 'UP',
    });
    expect(live.status).toBe(200);
    // A checker that settles after its timeout leaves nothing behind: no unhandled rejection.
    await new Promise((r) => setTimeout(r, 500));
    expect(messages(s).filter((m) => m.includes('unhandled'))).toEqual([]);
    s.child.kill('SIGTERM');
    expect((await s.exit).code).toBe(0);
  });

  it('keeps serving after a throw that follows the response, and logs background rejections with their stack', async ({
    task,
  }) => {
    const s = startService();
    const port = await s.port;
    const after = await call(port, '/fault/after-send');
    const background = await call(port, '/fault/background');
    const nonError = await call(port, '/fault/background-non-error');
    await s.waitFor(/background work failed/);
    await s.waitFor(/not an Error/);
    const live = await hammer(port, () => '/health/live', 50, 5);
    addFigures(task.meta, { requestsSent: 3 + live.length });

    expect(after).toMatchObject({ status: 200, body: '{"sent":true}' });
    expect(background.status).toBe(200);
    expect(nonError.status).toBe(200);
    expect(live.every((a) => a.status === 200)).toBe(true);
    const rejection = s.entries.find((e) => /background work failed/.test(String(e.message)));
    expect(rejection).toMatchObject({ level: 'warn' });
    expect(String(rejection?.message)).toMatch(
      /^unhandled promise rejection \(still serving\): Error: background work failed\n\s+at /,
    );
    expect(messages(s)).toContain(
      "unhandled promise rejection (still serving): { reason: 'not an Error' }",
    );
    s.child.kill('SIGTERM');
    expect((await s.exit).code).toBe(0);
  });

  it('ends the process with code 1 after logging an uncaught exception with its stack', async ({
    task,
  }) => {
    const s = startService();
    const port = await s.port;
    const res = await call(port, '/fault/crash');
    const { code } = await s.exit;
    addFigures(task.meta, { requestsSent: 1 });
    expect(res.status).toBe(200);
    expect(code).toBe(1);
    const last = s.entries.at(-1);
    expect(last).toMatchObject({ level: 'error' });
    expect(String(last?.message)).toMatch(
      /^uncaught exception, exiting: Error: crash in a timer\n\s+at /,
    );
  });

  it('keeps answering while nobody reads its stdout, then delivers every log line', async ({
    task,
  }) => {
    const s = startService();
    const port = await s.port;
    const stdout = s.child.stdout!;
    // Stop reading: once this side's buffer holds a high-water mark, Node stops reading the
    // pipe, and the pipe (64 KiB) fills after a few hundred lines.
    stdout.pause();
    const count = 4_000;
    const answers = await hammer(port, (i) => `/work/slow-sink-${i}`, count, 20);
    const readerStalled = stdout.readableLength >= stdout.readableHighWaterMark;
    stdout.resume();
    s.child.kill('SIGTERM');
    const { code } = await s.exit;
    const logged = new Set(
      s.entries.filter((e) => String(e.path).startsWith('/work/slow-sink-')).map((e) => e.path),
    );
    const lost = count - logged.size;
    const slowest = Math.max(...answers.map((a) => a.ms));
    addFigures(task.meta, { requestsSent: count, logLinesLost: lost });
    console.log(
      `slow log sink: ${count} requests answered while stdout was not read ` +
        `(reader stalled: ${readerStalled}), slowest ${slowest.toFixed(0)} ms, ${lost} log lines lost`,
    );

    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(readerStalled).toBe(true);
    expect(slowest).toBeLessThan(2_000);
    expect(code).toBe(0);
    expect(lost).toBe(0);
    expect(s.garbled).toEqual([]);
  });
});
