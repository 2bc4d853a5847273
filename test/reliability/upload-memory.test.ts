import * as http from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { killAll, startLogProcess } from '../support/log-process.js';
import { addFigures } from './figures.js';

const fixture = fileURLToPath(new URL('./fixtures/upload-service.ts', import.meta.url));
afterEach(killAll);

const SIZE = 200 * 1024 * 1024;
const CHUNK = Buffer.alloc(1024 * 1024, 0x5a);

/** POSTs a `SIZE`-byte file as multipart, written chunk by chunk with backpressure. */
function upload(port: number): Promise<{ status: number; body: Record<string, number> }> {
  const boundary = 'keelsonreliability';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="blob"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/upload',
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + SIZE + tail.length,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => {
          text += String(d);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.write(head);
    let sent = 0;
    const pump = () => {
      while (sent < SIZE) {
        sent += CHUNK.length;
        if (!req.write(CHUNK)) return void req.once('drain', pump);
      }
      req.end(tail);
    };
    pump();
  });
}

describe('upload memory', () => {
  it('keeps RSS low while a 200 MB upload streams to disk and back', async ({ task }) => {
    const s = startLogProcess(fixture);
    const port = await s.port;
    const base = await fetch(`http://127.0.0.1:${port}/reset`, { method: 'POST' });
    const { rssMb: baseMb } = (await base.json()) as { rssMb: number };
    const { status, body } = await upload(port);
    expect(status).toBe(200);
    expect(body.size).toBe(SIZE);
    expect(body.read).toBe(SIZE);
    const grewMb = body.peakRssMb! - baseMb;
    process.stdout.write(
      `upload memory: 200 MB upload, service RSS ${baseMb} MB before, peak ${body.peakRssMb} MB (+${grewMb} MB)\n`,
    );
    addFigures(task.meta, {
      requestsSent: 2,
      uploadPeakRssMb: body.peakRssMb!,
      uploadRssGrowthMb: grewMb,
    });
    // Buffered whole, the peak would grow by at least the upload's 200 MB.
    expect(grewMb).toBeLessThan(100);
    s.child.kill('SIGTERM');
    expect((await s.exit).code).toBe(0);
  });
});
