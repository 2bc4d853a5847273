import { expect, it } from 'vitest';
import * as auth from '../../src/auth/index.js';

it('exports exactly the public keelson/auth API', () => {
  expect(Object.keys(auth).sort()).toEqual([
    'apiKey',
    'authorize',
    'bearer',
    'jwt',
    'memoryRefreshStore',
    'redisRefreshStore',
  ]);
});
