import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { killAll, startLogProcess } from '../support/log-process.js';
import { FORM_TYPE, formBody, sendUpload } from '../support/upload-client.js';
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

  it('answers 100 concurrent gzip-encoded uploads 415 at once, with no connection left open', async ({
    task,
  }) => {
    const s = startLogProcess(fixture);
    const port = await s.port;
    // ~64 KB of random bytes: the gzipped body is as large as the form.
    const body = gzipSync(formBody([['doc', randomBytes(64 * 1024), 'application/octet-stream']]));
    const headers = {
      'content-type': FORM_TYPE,
      'content-encoding': 'gzip',
      authorization: 'Bearer s3cret',
    };
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => sendUpload(port, '/api/files', body, { headers })),
    );
    const allMs = Math.round(performance.now() - started);
    const wrong = answers.filter((a) => a.status !== 415).length;
    process.stdout.write(
      `gzip uploads: 100 concurrent answered in ${allMs} ms, ${wrong} not 415\n`,
    );
    addFigures(task.meta, { requestsSent: 100, failures: wrong });
    expect(wrong).toBe(0);
    s.child.kill('SIGTERM');
    expect((await s.exit).code).toBe(0);
  });
});
