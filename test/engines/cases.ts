/**
 * The one case file of the engine suite: every case is written once and runs on each engine
 * (test/engines/fastify.test.ts, test/engines/bun.test.ts), over real sockets of 127.0.0.1.
 * Where the engines' contracts differ (a feature the Bun engine refuses), the case branches on
 * the engine and says why; any other difference between the two runs is a bug.
 * @module
 */
import { afterAll } from 'vitest';
import { answerPathCases } from './cases/answer-path.js';
import { contextCases } from './cases/context.js';
import { extraCases } from './cases/extras.js';
import { featureCases } from './cases/features.js';
import { middlewareCases } from './cases/middleware.js';
import { routingCases } from './cases/routing.js';
import { shutdownCases } from './cases/shutdown.js';
import { wireCases } from './cases/wire.js';
import { closeAll, type EngineName } from './harness.js';

/** Declares every case of the suite for `engine`. */
export function engineCases(engine: EngineName): void {
  // A safety net: an app a failed case left listening is closed at the end.
  afterAll(closeAll);
  routingCases(engine);
  answerPathCases(engine);
  contextCases(engine);
  middlewareCases(engine);
  extraCases(engine);
  featureCases(engine);
  wireCases(engine);
  shutdownCases(engine);
}
