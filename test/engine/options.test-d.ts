import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { ErrorContext } from '../../src/extend/index.js';
import type { AppOptions, ProblemDetails } from '../../src/index.js';

describe('the answer-path options of AppOptions', () => {
  it('gives the errors hook a typed problem and context', () => {
    const options: AppOptions = {
      serviceName: 's',
      errors: {
        body: (problem, c) => {
          expectTypeOf(problem).toEqualTypeOf<ProblemDetails>();
          expectTypeOf(c).toEqualTypeOf<ErrorContext>();
          expectTypeOf(c.requestId).toEqualTypeOf<string | undefined>();
          return { message: problem.detail };
        },
        contentType: 'application/json',
        schema: z.object({ message: z.string() }),
      },
    };
    expectTypeOf(options).toExtend<AppOptions>();
  });

  it('takes requestId as false or { header }, and trustProxy as Fastify takes it', () => {
    expectTypeOf<{ serviceName: 's'; requestId: false }>().toExtend<AppOptions>();
    expectTypeOf<{ serviceName: 's'; requestId: { header: 'x-trace' } }>().toExtend<AppOptions>();
    expectTypeOf<{ serviceName: 's'; requestId: 'x-trace' }>().not.toExtend<AppOptions>();
    expectTypeOf<{ serviceName: 's'; trustProxy: true }>().toExtend<AppOptions>();
    expectTypeOf<{ serviceName: 's'; trustProxy: ['10.0.0.0/8'] }>().toExtend<AppOptions>();
    // @ts-expect-error errors.body must be a function
    const bad: AppOptions = { serviceName: 's', errors: { body: 'x' } };
    void bad;
  });
});
