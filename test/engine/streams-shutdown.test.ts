import * as http from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { killAll, startLogProcess } from '../support/log-process.js';

const fixture = fileURLToPath(new URL('../fixtures/streams-app.ts', import.meta.url));
afterEach(killAll);

describe('open streams at shutdown (child process, SIGTERM)', () => {
  it('ends event streams and closes WebSockets with 1001, then exits 0 well before the deadline', async () => {
    const s = startLogProcess(fixture);
    const port = await s.port;

    let body = '';
    const sseEnded = new Promise<void>((resolve, reject) => {
      http
        .get(`http://127.0.0.1:${port}/events`, (res) => {
          res.setEncoding('utf8');
          res.on('data', (d: string) => {
            body += d;
          });
          res.on('end', resolve);
        })
        .on('error', reject);
    });
    const socket = new WebSocket(`ws://127.0.0.1:${port}/live`);
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    await new Promise<void>((resolve) => socket.once('message', () => resolve()));
    while (!body.includes('id: 2')) await new Promise((r) => setImmediate(r));

    const sentAt = Date.now();
    s.child.kill('SIGTERM');
    expect(await closed).toBe(1001);
    await sseEnded;
    const { code, at } = await s.exit;
    expect(code).toBe(0);
    expect(at - sentAt).toBeLessThan(3_000);

    const messages = s.entries.map((e) => String(e.message ?? ''));
    expect(messages).toContain('event source returned');
    expect(messages).toContain('websocket closed with 1001');
    const requests = s.entries.filter((e) => 'method' in e);
    expect(requests).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: '/events', status: 200 }),
        expect.objectContaining({ path: '/live', status: 101 }),
      ]),
    );
    expect(s.garbled).toEqual([]);
  });
});
