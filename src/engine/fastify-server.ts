/**
 * The listening side of the Fastify engine, as the lifecycle runs it.
 * @module
 */
import type { FastifyInstance } from 'fastify';
import { ConnectionTracker } from '../lifecycle/connections.js';
import type { EngineServer } from '../lifecycle/engine-server.js';
import { boundUrl } from './engine.js';

/** `fastify`'s server, bound, drained and closed as the lifecycle asks. */
export function fastifyServer(fastify: FastifyInstance): EngineServer {
  return {
    track: (options) => new ConnectionTracker(fastify.server, options),
    listen: async (port, host) => {
      await fastify.listen({ port, host });
      return boundUrl(fastify);
    },
    close: () => fastify.close(),
    closeIdle: () => fastify.server.closeIdleConnections?.(),
    closeAll: () => fastify.server.closeAllConnections?.(),
  };
}
