import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { FORM_TYPE, formBody, sendUpload } from '../http/upload-client.js';
import { killAll, startLogProcess } from '../support/log-process.js';
import { addFigures } from './figures.js';

const fixture = fileURLToPath(new URL('./fixtures/guarded-upload-service.ts', import.meta.url));
afterEach(killAll);

const SIZE = 5 * 1024 * 1024;
// The client sends this much, then waits (at most HOLD_MS) for an answer before sending the rest:
// a guard that waits for the body answers only after HOLD_MS and the whole transfer.
const HOLD = 64 * 1024;
const HOLD_MS = 2_000;

describe('upload before auth', () => {
  it('refuses a 5 MiB upload without a token in milliseconds, before its body', async ({
    task,
  }) => {
    const s = startLogProcess(fixture);
    const port = await s.port;
    const body = formBody([['doc', Buffer.alloc(SIZE, 0x5a), 'application/octet-stream']]);
    const form = { 'content-type': FORM_TYPE };
    const refused = await sendUpload(port, '/api/files', body, {
      headers: form,
      holdAfter: HOLD,
      holdMs: HOLD_MS,
    });
    const accepted = await sendUpload(port, '/api/files', body, {
      headers: { ...form, authorization: 'Bearer s3cret' },
    });
    const refusalMs = Math.round(refused.answeredMs * 10) / 10;
    const acceptedMs = Math.round(accepted.answeredMs * 10) / 10;
    process.stdout.write(
      `upload before auth: 5 MiB upload without a token refused in ${refusalMs} ms ` +
        `after ${refused.bodySentBeforeAnswer} bytes of its body; with a token, stored and answered in ${acceptedMs} ms\n`,
    );
    addFigures(task.meta, { requestsSent: 2, uploadRefusalMs: refusalMs });
    expect(refused.status).toBe(401);
    expect(refused.headers.connection).toBe('close');
    expect(accepted.status).toBe(200);
    expect(refused.bodySentBeforeAnswer).toBe(HOLD);
    expect(refused.answeredMs).toBeLessThan(HOLD_MS);
    s.child.kill('SIGTERM');
    expect((await s.exit).code).toBe(0);
  });
});
