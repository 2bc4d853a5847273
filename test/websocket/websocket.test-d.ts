import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { ws } from '../../src/index.js';

describe('websocket route types', () => {
  it('types the message from its schema and the path parameters from the path', () => {
    ws('/rooms/:room', {
      message: z.object({ text: z.string() }),
      onMessage(message, socket, c) {
        expectTypeOf(message).toEqualTypeOf<{ text: string }>();
        expectTypeOf(c.params.room).toEqualTypeOf<string>();
        socket.send(message.text);
        // @ts-expect-error: not a parameter of the path
        c.params.other;
      },
    });
  });

  it('hands over the raw text or Buffer without a schema', () => {
    ws('/raw', {
      onMessage(message) {
        expectTypeOf(message).toEqualTypeOf<string | Buffer>();
      },
    });
  });

  it('takes maxQueued as a number and pingIntervalMs as a number or false', () => {
    ws('/limits', { maxQueued: 8, pingIntervalMs: false, onMessage() {} });
    ws('/limits', { maxQueued: 8, pingIntervalMs: 5_000, onMessage() {} });
    // @ts-expect-error: pingIntervalMs is a number of ms or false
    ws('/limits', { pingIntervalMs: true, onMessage() {} });
    // @ts-expect-error: maxQueued is a number
    ws('/limits', { maxQueued: '8', onMessage() {} });
  });

  it('requires onMessage', () => {
    // @ts-expect-error: onMessage is missing
    ws('/none', {});
  });
});
