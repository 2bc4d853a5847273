import { describe } from 'vitest';
import { idempotency, memoryIdempotencyStore } from '../../src/idempotency/index.js';
import { idempotencyCases, memoryOrders } from './cases.js';

describe('idempotency on the memory store', () => {
  idempotencyCases(() => {
    const store = memoryIdempotencyStore();
    return {
      prepare: async () => memoryOrders(),
      middleware: (options = {}) => [idempotency({ store, ...options })],
      seesRunning: true,
    };
  });
});
