import { describe, expect, it } from 'vitest';
import { testApp } from '../app/helpers.js';

describe('the health routes in the document', () => {
  it('name each probe by its operationId under the health tag, with a summary and a description', async () => {
    const { app } = testApp();
    const doc = await app.openapi();
    const ops = Object.fromEntries(
      ['/health', '/health/ready', '/health/live'].map((path) => {
        const op = doc.paths[path]?.get as unknown as Record<string, unknown>;
        return [path, [op.operationId, op.tags, op.summary, op.description]];
      }),
    );
    expect(ops).toEqual({
      '/health': [
        'getHealth',
        ['health'],
        'Health of the service and its dependencies',
        "Runs every registered health checker in parallel. 200 when all are UP, 503 when one is DOWN (those registered with `affects: 'none'` are shown, never counted) or once the service has begun shutting down.",
      ],
      '/health/ready': [
        'getHealthReady',
        ['health'],
        'Readiness to take traffic',
        "For readiness probes: runs every registered health checker (concurrent probes share one run; `health.cacheMs` reuses a result). 200 when all are UP; 503 when one is DOWN (those registered with `affects: 'none'` are shown, never counted), and from the moment shutdown begins (SIGTERM), so the load balancer stops sending traffic while the service still serves for `drainDelayMs`.",
      ],
      '/health/live': [
        'getHealthLive',
        ['health'],
        'Liveness of the process',
        "For liveness probes: answers 200 while the event loop runs, during shutdown too. It runs only the checkers registered with `affects: 'liveness'` (none by default: a failing dependency is no reason to restart) and answers 503 when one is DOWN.",
      ],
    });
  });
});
