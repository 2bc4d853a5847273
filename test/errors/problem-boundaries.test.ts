import { describe, expect, it } from 'vitest';
import { toProblem } from '../../src/errors/index.js';

const secret = 'password=hunter2 at db-7';

describe('toProblem at the 4xx/5xx boundary', () => {
  it('hides the message of an error carrying exactly 500', () => {
    const p = toProblem(Object.assign(new Error(secret), { statusCode: 500 }));
    expect(p).toMatchObject({ status: 500, code: 'INTERNAL' });
    expect(JSON.stringify(p)).not.toContain('hunter2');
  });

  it('keeps the message of an error carrying exactly 499', () => {
    const p = toProblem(Object.assign(new Error('client went away'), { statusCode: 499 }));
    expect(p).toMatchObject({ status: 499, detail: 'client went away' });
  });

  it('uses the status phrase when a 4xx says its message is not for clients (expose: false)', () => {
    const p = toProblem(Object.assign(new Error(secret), { statusCode: 409, expose: false }));
    expect(p).toMatchObject({ status: 409, detail: 'Conflict' });
  });

  it('uses the status phrase for a 4xx with an empty message', () => {
    expect(toProblem(Object.assign(new Error(''), { statusCode: 404 })).detail).toBe('Not Found');
  });
});
