/**
 * Keelson: a TypeScript framework for HTTP services on Fastify 5.
 * @module
 */

/** The version of the keelson package. */
export const VERSION = '0.1.0';
