import type { FastifyInstance } from 'fastify';

/** A Fastify plugin registration an App feature adds at mount (cookies, compression, static files). */
export type EnginePlugin = (fastify: FastifyInstance) => Promise<void>;
