// The engine suite on the Fastify engine, the default on every runtime: runs in `npm test`
// (Node.js) and in `npm run test:bun` (Bun).
import { describe } from 'vitest';
import { engineCases } from './cases.js';

describe('the Fastify engine', () => engineCases('fastify'));
