import { expect, it } from 'vitest';
import * as logger from '../../src/logger/index.js';

it('exports exactly the public logger API', () => {
  expect(Object.keys(logger).sort()).toEqual([
    'LogFormat',
    'Logger',
    'newLogger',
    'newLoggerWithFormat',
  ]);
  expect(logger.LogFormat).toEqual({ Text: 'text', JSON: 'json' });
});
