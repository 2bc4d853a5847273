import { describe, expect, it } from 'vitest';
import { testApp } from '../app/helpers.js';

type Operation = {
  responses: Record<string, { content: Record<string, { schema: unknown }> }>;
};

describe('the documented health bodies', () => {
  it('describe /health and /health/ready as a report with a status, the service, its version and each check', async () => {
    const { app } = testApp();
    const doc = await app.openapi();
    const report = {
      type: 'object',
      description: 'The health of the service and of each dependency it checks.',
      properties: {
        status: { type: 'string', enum: ['UP', 'DOWN'] },
        service: { type: 'string' },
        version: { type: 'string' },
        checks: {
          type: 'object',
          additionalProperties: { type: 'string' },
          description:
            'Checker name → `UP`, `UP: <warning>` or `DOWN: <reason>`; `shutdown` once shutdown has begun.',
        },
      },
      required: ['status', 'service', 'version', 'checks'],
      additionalProperties: false,
    };
    for (const path of ['/health', '/health/ready']) {
      const op = doc.paths[path]?.get as Operation;
      for (const status of ['200', '503']) {
        expect(
          op.responses[status]?.content['application/json']?.schema,
          `${path} ${status}`,
        ).toEqual(report);
      }
    }
  });

  it('describe /health/live as a status, with the liveness checks when there are any', async () => {
    const { app } = testApp();
    const doc = await app.openapi();
    const op = doc.paths['/health/live']?.get as Operation;
    expect(op.responses['200']?.content['application/json']?.schema).toEqual({
      type: 'object',
      description:
        "The process is running and its event loop answers; with checkers registered as `affects: 'liveness'`, their results.",
      properties: {
        status: { type: 'string', enum: ['UP', 'DOWN'] },
        checks: { type: 'object', additionalProperties: { type: 'string' } },
      },
      required: ['status'],
      additionalProperties: false,
    });
  });
});
