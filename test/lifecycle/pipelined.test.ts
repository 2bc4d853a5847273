import * as net from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { killAll, startLogProcess } from '../support/log-process.js';

const fixture = fileURLToPath(new URL('../fixtures/shutdown-app.ts', import.meta.url));
afterEach(killAll);

// Node stops reading a busy connection once the server closes, so a request sent on it after
// SIGTERM never reaches Fastify (which is why the engine's `return503OnClosing` changes nothing).
describe('a connection busy with a request when SIGTERM arrives (child process)', () => {
  it('gets its answer with `connection: close`, and a request sent after it is left for the client to retry', async () => {
    const s = startLogProcess(fixture, { SHUTDOWN_TIMEOUT_MS: '4000' });
    const port = await s.port;
    const sock = net.connect(port, '127.0.0.1');
    let text = '';
    sock.on('data', (d: Buffer) => (text += d.toString('latin1')));
    sock.on('error', () => {});
    const closed = new Promise<void>((r) => sock.on('close', () => r()));
    sock.write('GET /slow/800 HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((r) => setTimeout(r, 200));
    s.child.kill('SIGTERM');
    await s.waitFor(/SIGTERM received: shutting down/);
    sock.write('GET /ping HTTP/1.1\r\nHost: x\r\n\r\n');
    await closed;
    const { code } = await s.exit;
    expect(code).toBe(0);
    expect(text.match(/HTTP\/1\.1 \d+/g)).toEqual(['HTTP/1.1 200']);
    expect(text).toMatch(/\r\nconnection: close\r\n/i);
    expect(text.endsWith('{"slept":true}')).toBe(true);
    const answered = s.entries.filter((e) => e.path !== undefined).map((e) => [e.path, e.status]);
    expect(answered).toEqual([['/slow/800', 200]]);
  });
});
