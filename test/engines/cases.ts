/**
 * The one case file of the engine suite: every case is written once and runs on each engine
 * (test/engines/fastify.test.ts, test/engines/bun.test.ts), over real sockets.
 * @module
 */
import { afterAll } from 'vitest';
import { answerPathCases } from './cases/answer-path.js';
import { routingCases } from './cases/routing.js';
import { closeAll, type EngineName } from './harness.js';

/** Declares every case of the suite for `engine`. */
export function engineCases(engine: EngineName): void {
  // A safety net: an app a failed case left listening is closed at the end.
  afterAll(closeAll);
  routingCases(engine);
  answerPathCases(engine);
}
