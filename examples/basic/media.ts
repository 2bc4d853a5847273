// An avatar upload and an event stream: the upload streams to a temporary file that Keelson
// removes after the response; the stream ends when the client leaves or the service stops.
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import {
  type App,
  type Controller,
  eventStream,
  file,
  get,
  type Module,
  multipart,
  post,
  type ServerSentEvent,
} from '../../src/index.js';

/** What the service keeps of an avatar. */
export const Avatar = z
  .object({ name: z.string(), type: z.string(), size: z.number().int(), note: z.string() })
  .meta({ id: 'Avatar' });

/** `POST /avatar`: a PNG of at most 1 MiB and a note. */
export class AvatarController implements Controller {
  routes() {
    return [
      post(
        '/avatar',
        {
          summary: 'Upload your avatar',
          tags: ['users'],
          security: [{ bearerAuth: [] }],
          body: multipart({
            avatar: file({ maxBytes: 1024 * 1024, types: ['image/png'] }),
            note: z.string().max(200).default(''),
          }),
          responses: { 201: Avatar },
        },
        async (c) => {
          const { avatar, note } = c.body;
          // A real service would copy avatar.stream() to object storage here.
          const header = new Uint8Array(await avatar.slice(0, 8).arrayBuffer());
          const png = header[1] === 0x50 && header[2] === 0x4e && header[3] === 0x47;
          const type = png ? avatar.type : 'application/octet-stream';
          return c.created({ name: avatar.name, type, size: avatar.size, note });
        },
      ),
    ];
  }
}

/** One tick per second, numbered on from the client's Last-Event-ID after a reconnect. */
async function* ticks(from: number, everyMs: number): AsyncGenerator<ServerSentEvent> {
  for (let n = from + 1; ; n++) {
    yield { id: String(n), event: 'tick', data: { n, at: new Date().toISOString() } };
    await sleep(everyMs);
  }
}

/** `GET /ticks`: an event stream, open to anyone (EventSource cannot send a bearer token). */
export const ticksRoute = get(
  '/ticks',
  {
    summary: 'A tick every second, as server-sent events',
    query: z.object({ everyMs: z.coerce.number().int().min(10).max(60_000).default(1000) }),
    responses: { 200: eventStream('`tick` events: { n, at }, with `n` as the event id.') },
  },
  (c) => {
    const last = Number(c.headers['last-event-id'] ?? 0);
    return c.sse(ticks(Number.isInteger(last) && last > 0 ? last : 0, c.query.everyMs));
  },
);

/** The avatar upload, under the caller's group (auth), and the public tick stream. */
export class MediaModule implements Module {
  register(app: App): void {
    app.registerController(new AvatarController());
  }
}
