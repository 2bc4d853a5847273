import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { SpanKind } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { onBun } from '../../src/runtime.js';

const fixture = fileURLToPath(new URL('./fixtures/otel-http-service.ts', import.meta.url));
const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';

interface SpanLine {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  scope: string;
  attributes: Record<string, unknown>;
}

/** Runs the traced service on a real socket and returns the spans it finished. */
async function spansOf(withHttpInstrumentation: boolean): Promise<SpanLine[]> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', fixture], {
    env: { ...process.env, OTEL_HTTP: withHttpInstrumentation ? '1' : '0' },
    timeout: 15_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as SpanLine[];
}

// On Bun the instrumentation does not patch node:http, so Keelson opens the server spans itself.
const instrumentedScope = onBun() ? 'keelson' : '@opentelemetry/instrumentation-http';

describe.each([
  ['with @opentelemetry/instrumentation-http', true, instrumentedScope],
  ['without instrumentation-http', false, 'keelson'],
])('keelson/opentelemetry over a real socket %s', (_, instrumented, serverScope) => {
  it('has exactly one server span per request, named by route, that continues the caller', async () => {
    const spans = await spansOf(instrumented);
    const servers = spans.filter((s) => s.kind === SpanKind.SERVER);
    expect(servers.map((s) => s.name)).toEqual(['GET /users/:id', 'GET /users/:id', 'GET']);
    expect(new Set(servers.map((s) => s.scope))).toEqual(new Set([serverScope]));
    const [first, second, unmatched] = servers;
    expect(first?.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/users/:id',
      'url.path': '/users/1',
      'url.scheme': 'http',
      'server.address': '127.0.0.1',
      'server.port': expect.any(Number),
      'network.protocol.version': '1.1',
      'user_agent.original': 'probe/1.0',
      'client.address': '127.0.0.1',
      'http.response.status_code': 200,
    });
    expect(first?.traceId).toBe(TRACE_ID);
    expect(first?.parentSpanId).toBe('b7ad6b7169203331');
    expect(second?.parentSpanId).toBeUndefined();
    expect(unmatched?.attributes['http.route']).toBeUndefined();
    expect(unmatched?.attributes['http.response.status_code']).toBe(404);
    // The handler's span nests under the one server span of its request.
    const children = spans.filter((s) => s.name === 'load user');
    expect(children.map((c) => c.parentSpanId)).toEqual([first?.spanId, second?.spanId]);
  });
});
