import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { get, post } from '../../src/index.js';
import { testApp } from '../app/helpers.js';
import { addFigures } from './figures.js';
import { type MalformedCase, malformedCases, PROTOCOL_GARBAGE } from './malformed.js';
import { type RawResponse, rawRequest, toBytes } from './raw-http.js';

const User = z.object({
  name: z.string().min(1).max(100),
  email: z.email(),
  tags: z.array(z.string().max(50)).max(20).optional(),
});

// Production: the docs are off, as in a deployed service.
const { app, lines } = testApp({ host: '127.0.0.1', port: 0, env: 'production' });
app.addRoutes(
  post('/users', { body: User }, (c) => c.created({ id: 1, ...c.body })),
  get(
    '/users/:id',
    {
      params: z.object({ id: z.coerce.number().int().positive() }),
      query: z.object({ limit: z.coerce.number().int().min(1).max(100).optional() }),
    },
    (c) => ({ id: c.params.id, limit: c.query.limit ?? 10 }),
  ),
);

let port = 0;
beforeAll(async () => {
  await app.ready();
  await app.fastify.listen({ port: 0, host: '127.0.0.1' });
  port = (app.fastify.server.address() as AddressInfo).port;
});
afterAll(() => app.close());

/** What one answer broke, if anything. */
function violation(
  allowed: readonly number[],
  status: number,
  contentType: string | undefined,
  body: string,
): string | undefined {
  if (!allowed.includes(status)) return `status ${status}, expected one of ${allowed.join('|')}`;
  if (status < 400) return undefined;
  if (!contentType?.startsWith('application/problem+json')) {
    return `status ${status} with content-type ${contentType}`;
  }
  let problem: Record<string, unknown>;
  try {
    problem = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return `status ${status} with a body that is not JSON: ${body.slice(0, 80)}`;
  }
  if (problem.status !== status || typeof problem.title !== 'string' || !problem.code) {
    return `status ${status} with a problem body that does not match: ${body.slice(0, 120)}`;
  }
  return undefined;
}

function describeCase(c: { category: string; parts: MalformedCase['parts'] }, via: string) {
  const { method, url } = c.parts;
  const shown = url.length > 60 ? `${url.slice(0, 60)}…(${url.length})` : url;
  return `[${via}] ${c.category}: ${JSON.stringify(method)} ${JSON.stringify(shown)}`;
}

/** Runs `work` over `items`, `width` at a time. */
async function inBatches<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += width) {
    await Promise.all(items.slice(i, i + width).map(work));
  }
}

function prototypeSnapshot(): string {
  const names = (o: object) => Object.getOwnPropertyNames(o).sort().join(',');
  return [Object.prototype, Array.prototype, Function.prototype, String.prototype]
    .map(names)
    .join('|');
}

function memory(): { heap: number; rss: number } {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, rss: m.rss };
}

describe('bad input: generated malformed requests, through inject() and a real socket', () => {
  it('answers every one with a 4xx problem (or Node parser close), never a 5xx, pollutes no prototype and keeps memory bounded', async ({
    task,
  }) => {
    const cases = malformedCases();
    const protoBefore = prototypeSnapshot();
    // A warm-up, so that lazily built parts of the engine count in the baseline.
    await inBatches(cases.slice(0, 50), 8, async (c) => {
      if (!c.rawOnly) await app.inject({ method: c.parts.method as 'GET', url: c.parts.url });
    });
    const before = memory();

    const problems: string[] = [];
    const seen = new Map<string, number>();
    let sent = 0;
    let serverErrors = 0;
    const count = (status: number) => {
      sent++;
      if (status >= 500) serverErrors++;
    };

    await inBatches(cases, 8, async (c) => {
      if (c.rawOnly) return;
      const res = await app.inject({
        method: c.parts.method as 'GET',
        url: c.parts.url,
        headers: c.parts.headers ?? {},
        ...(c.parts.body ? { payload: c.parts.body } : {}),
      });
      count(res.statusCode);
      const bad = violation(
        c.allowed,
        res.statusCode,
        res.headers['content-type'] as string,
        res.body,
      );
      if (bad) problems.push(`${describeCase(c, 'inject')}: ${bad}`);
    });

    const onRaw = (
      c: { category: string; parts: MalformedCase['parts'] },
      allowed: readonly number[],
      res: RawResponse,
    ) => {
      count(res.status);
      const key = `${c.category} → ${res.status === 0 ? 'closed unanswered' : res.status}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      const bad = violation(allowed, res.status, res.headers['content-type'], res.body);
      if (bad) problems.push(`${describeCase(c, 'socket')}: ${bad}`);
    };
    await inBatches(cases, 8, async (c) => {
      if (c.injectOnly) return;
      onRaw(c, c.allowed, await rawRequest(port, toBytes(c.parts)));
    });
    await inBatches(PROTOCOL_GARBAGE, 8, async (g) => {
      const res = await rawRequest(port, g.bytes);
      if (g.bare) {
        count(res.status);
        if (res.status !== 400 || res.headers['content-type'] !== undefined) {
          problems.push(`[socket] ${g.name}: expected Node's bare 400, got ${res.status}`);
        }
        return;
      }
      onRaw({ category: 'not HTTP/1.1', parts: { method: g.name, url: '' } }, g.allowed, res);
    });

    // The service still answers, and nothing leaked into the prototypes of the server process.
    const live = await app.inject('/health/live');
    expect(live.statusCode).toBe(200);
    expect(prototypeSnapshot()).toBe(protoBefore);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    const after = memory();
    const growth = {
      heapMiB: (after.heap - before.heap) / 2 ** 20,
      rssMiB: (after.rss - before.rss) / 2 ** 20,
    };
    addFigures(task.meta, {
      requestsSent: sent,
      malformedTried: sent,
      serverErrors,
      failures: problems.length,
    });
    console.log(
      `bad input: ${sent} malformed requests (${cases.length} cases + ${PROTOCOL_GARBAGE.length} protocol garbage), ` +
        `${serverErrors} 5xx, ${problems.length} wrong answers; heap ${growth.heapMiB.toFixed(1)} MiB, rss ${growth.rssMiB.toFixed(1)} MiB growth`,
    );
    console.log([...seen].map(([k, v]) => `  ${k}: ${v}`).join('\n'));

    expect(sent).toBeGreaterThanOrEqual(2_000);
    expect(problems.slice(0, 30)).toEqual([]);
    expect(serverErrors).toBe(0);
    // Generous: a leak of a few bytes per request over 2,000 requests would not show, but
    // keeping bodies or sockets alive (megabytes each for the huge ones) would.
    expect(growth.heapMiB).toBeLessThan(64);
    expect(growth.rssMiB).toBeLessThan(256);
    // Every request reached the log as one entry, none at error level.
    expect(lines.some((l) => l.includes('"level":"error"'))).toBe(false);
  });
});
