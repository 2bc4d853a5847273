import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type App, file, multipart, post } from '../../src/index.js';
import { requestEntries, testApp } from '../app/helpers.js';
import { serve } from '../support/serve.js';
import { FORM_TYPE, formBody, sendUpload } from '../support/upload-client.js';

// The disk error the next temporary file meets when it is written, if any.
const disk = vi.hoisted(() => ({ failWith: undefined as string | undefined }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  return {
    ...fs,
    createWriteStream: (...args: Parameters<typeof fs.createWriteStream>) => {
      const code = disk.failWith;
      if (code === undefined) return fs.createWriteStream(...args);
      // What a write to a read-only or full file system gives: the error on the first write.
      return new Writable({
        write(_chunk, _encoding, done) {
          done(Object.assign(new Error(`${code}: simulated, write`), { code, syscall: 'write' }));
        },
      });
    },
  };
});

let uploadDir: string;
const savedTmp = process.env.TMPDIR;
beforeAll(() => {
  uploadDir = mkdtempSync(join(tmpdir(), 'keelson-uploads-storage-'));
});
afterAll(() => {
  process.env.TMPDIR = savedTmp;
  rmSync(uploadDir, { recursive: true, force: true });
});

const apps: App[] = [];
afterEach(async () => {
  disk.failWith = undefined;
  process.env.TMPDIR = uploadDir;
  for (const app of apps.splice(0)) await app.close();
});

async function uploadApp() {
  const { app, lines } = testApp();
  apps.push(app);
  app.addRoutes(
    post('/doc', { body: multipart({ doc: file({ maxBytes: 1_000_000 }) }) }, (c) => ({
      size: c.body.doc.size,
    })),
  );
  return { port: await serve(app), lines };
}

const form = formBody([['doc', Buffer.alloc(100_000, 1), 'application/octet-stream']]);

describe('uploads when the temporary directory cannot take them', () => {
  it('answers 500 problem+json, not a 400 blaming the client, when the directory is missing, and logs why', async () => {
    const { port, lines } = await uploadApp();
    process.env.TMPDIR = join(uploadDir, 'gone');
    const res = await sendUpload(port, '/doc', form, { headers: { 'content-type': FORM_TYPE } });
    expect(res.status).toBe(500);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(res.body)).toMatchObject({
      status: 500,
      code: 'UPLOAD_NOT_STORED',
      detail: 'The upload could not be stored.',
    });
    const [entry] = requestEntries(lines);
    expect(entry).toMatchObject({ level: 'error', status: 500, path: '/doc' });
    expect(String(entry!.error)).toMatch(/caused by: Error: ENOENT: no such file or directory/);
  });

  it('answers 500 to a read-only file system and 507 to a full one, each logged with its cause', async () => {
    const { port, lines } = await uploadApp();
    const cases = [
      ['EROFS', 500, 'UPLOAD_NOT_STORED'],
      ['ENOSPC', 507, 'INSUFFICIENT_STORAGE'],
    ] as const;
    for (const [code, status, problemCode] of cases) {
      disk.failWith = code;
      const res = await sendUpload(port, '/doc', form, { headers: { 'content-type': FORM_TYPE } });
      expect(res.status, code).toBe(status);
      expect(JSON.parse(res.body), code).toMatchObject({ status, code: problemCode });
    }
    const entries = requestEntries(lines);
    expect(entries.map((e) => [e.level, e.status])).toEqual([
      ['error', 500],
      ['error', 507],
    ]);
    expect(String(entries[0]!.error)).toContain('EROFS: simulated, write');
    expect(String(entries[1]!.error)).toContain('ENOSPC: simulated, write');
    expect(readdirSync(uploadDir)).toEqual([]);
  });

  it('still stores uploads when the directory is fine', async () => {
    const { port } = await uploadApp();
    const res = await sendUpload(port, '/doc', form, { headers: { 'content-type': FORM_TYPE } });
    expect([res.status, JSON.parse(res.body)]).toEqual([200, { size: 100_000 }]);
  });
});
