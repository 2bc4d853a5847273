// The engine suite on the Bun.serve engine (`engine: 'bun'`). It needs Bun: it runs in
// `npm run test:bun`, and vitest.config.ts leaves it out of `npm test` on Node.js.
import { describe } from 'vitest';
import { engineCases } from './cases.js';

describe('the Bun engine', () => engineCases('bun'));
