/**
 * A WebSocket client written by hand on a TCP socket, for the clients a library will not play:
 * one that answers no ping and no close frame, one that sends a burst of frames in one write.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

/** A frame the server sent. */
export interface Frame {
  /** 1 text, 2 binary, 8 close, 9 ping, 10 pong. */
  opcode: number;
  payload: Buffer;
}

/** A hand-made client: it reads and records frames, and answers nothing by itself. */
export interface RawWebSocket {
  socket: Socket;
  /** Every frame received so far, in order. */
  frames: Frame[];
  /** Resolves with the first frame (past or future) with `opcode`. */
  frame(opcode: number): Promise<Frame>;
  /** Resolves once the TCP connection has closed. */
  closed: Promise<void>;
}

/** The close code and reason of a close frame. */
export function closeOf(frame: Frame): { code: number; reason: string } {
  return { code: frame.payload.readUInt16BE(0), reason: frame.payload.subarray(2).toString() };
}

/** Text frames as a client must send them: masked (with a zero key, which leaves them as is). */
export function textFrames(...texts: string[]): Buffer {
  return Buffer.concat(
    texts.map((text) => {
      const payload = Buffer.from(text);
      if (payload.length > 125) throw new RangeError('short frames only');
      return Buffer.concat([Buffer.from([0x81, 0x80 | payload.length, 0, 0, 0, 0]), payload]);
    }),
  );
}

/** Opens `path` on 127.0.0.1:`port`; resolves once the server has answered 101. */
export function rawWebSocket(port: number, path: string): Promise<RawWebSocket> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  const frames: Frame[] = [];
  const waiters: { opcode: number; resolve: (f: Frame) => void }[] = [];
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  let buffer = Buffer.alloc(0);
  let upgraded = false;
  return new Promise((resolve, reject) => {
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (!upgraded) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end === -1) return;
        const head = buffer.subarray(0, end).toString('latin1');
        if (!head.startsWith('HTTP/1.1 101')) return reject(new Error(`refused: ${head}`));
        upgraded = true;
        buffer = buffer.subarray(end + 4);
        resolve({ socket, frames, frame, closed });
      }
      for (let f = parse(); f; f = parse()) {
        frames.push(f);
        for (const w of waiters.filter((x) => x.opcode === f.opcode)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(f);
        }
      }
    });
    socket.once('close', () => reject(new Error('closed before the upgrade')));
    socket.write(
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
  });

  function frame(opcode: number): Promise<Frame> {
    const seen = frames.find((f) => f.opcode === opcode);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => waiters.push({ opcode, resolve }));
  }

  // One whole frame from the server (never masked) off the buffer, or undefined.
  function parse(): Frame | undefined {
    if (buffer.length < 2) return undefined;
    let length = buffer[1]! & 0x7f;
    let start = 2;
    if (length === 126) {
      if (buffer.length < 4) return undefined;
      length = buffer.readUInt16BE(2);
      start = 4;
    } else if (length === 127) {
      if (buffer.length < 10) return undefined;
      length = Number(buffer.readBigUInt64BE(2));
      start = 10;
    }
    if (buffer.length < start + length) return undefined;
    const f = { opcode: buffer[0]! & 0x0f, payload: buffer.subarray(start, start + length) };
    buffer = buffer.subarray(start + length);
    return f;
  }
}
