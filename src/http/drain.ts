import type { FastifyInstance } from 'fastify';

/**
 * Once `isDraining()` turns true, every HTTP/1.x response carries `Connection: close`, so a
 * keep-alive client opens a new connection (and is refused) instead of sending its next request
 * on a socket the drain is about to close, where it would meet a reset. The engine already does
 * this for requests that arrive during the drain; this covers those in flight when it began.
 */
export function installDrainHeader(fastify: FastifyInstance, isDraining: () => boolean): void {
  fastify.addHook('onSend', function closeWhileDraining(request, reply, payload, done) {
    if (isDraining() && request.raw.httpVersionMajor === 1) reply.header('connection', 'close');
    done(null, payload);
  });
}
