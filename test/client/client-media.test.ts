import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { createClient, type RoutesOf } from '../../src/client/index.js';
import { eventStream, file, get, multipart, post } from '../../src/index.js';
import { injectFetch } from '../../src/testing/index.js';
import { testApp } from '../app/helpers.js';

// keelson/client with what is not JSON: files sent as multipart/form-data, binary and text
// answers decoded by their media type, an event stream handed over as a stream.

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00, 0x80]);
const Saved = z.object({ name: z.string(), type: z.string(), size: z.number(), note: z.string() });

const avatar = post(
  '/avatar',
  {
    body: multipart({ avatar: file({ types: ['image/png'] }), note: z.string() }),
    responses: { 201: Saved },
  },
  async (c) => {
    const { avatar: f, note } = c.body;
    return c.created({ name: f.name, type: f.type, size: f.size, note });
  },
);
const notesForm = post(
  '/notes',
  { body: multipart({ text: z.string() }), responses: { 200: z.object({ text: z.string() }) } },
  (c) => ({ text: c.body.text }),
);
const blob = get('/logo.png', { media: { responses: 'image/png' } }, (c) => {
  c.reply.type('image/png');
  return Buffer.from(PNG);
});
const report = get(
  '/report',
  { media: { responses: 'text/plain' }, responses: { 200: z.string() } },
  (c) => {
    c.reply.type('text/plain; charset=utf-8');
    return 'line 1\nline 2';
  },
);
const ticks = get('/ticks', { responses: { 200: eventStream() } }, (c) =>
  c.sse(
    (async function* () {
      yield { event: 'tick', data: { n: 1 } };
    })(),
  ),
);

type Api = RoutesOf<[typeof avatar, typeof notesForm, typeof blob, typeof report, typeof ticks]>;

function client() {
  const { app } = testApp();
  app.addRoutes(avatar, notesForm, blob, report, ticks);
  return createClient<Api>({ baseUrl: 'http://local', fetch: injectFetch(app) });
}

describe('the typed client with files and binary answers', () => {
  it('sends a body holding a File as multipart/form-data, which an upload route takes', async () => {
    const api = client();
    const png = new File([PNG], 'me.png', { type: 'image/png' });

    const r = await api.post('/avatar', { body: { avatar: png, note: 'hi' } });

    expect(r.error).toBeUndefined();
    expect(r).toMatchObject({ status: 201 });
    expect(r.data).toEqual({ name: 'me.png', type: 'image/png', size: PNG.length, note: 'hi' });
  });

  it('sends a FormData as it is, for a form with no file too', async () => {
    const api = client();
    const form = new FormData();
    form.append('avatar', new Blob([PNG], { type: 'image/png' }), 'blob.png');
    form.append('note', 'from a form');

    const r = await api.post('/avatar', { body: form });
    expect(r.data).toMatchObject({ name: 'blob.png', size: PNG.length, note: 'from a form' });
    const text = new FormData();
    text.append('text', 'just text');
    expect((await api.post('/notes', { body: text })).data).toEqual({ text: 'just text' });
  });

  it('gives a binary answer as a Blob with its bytes intact, text as a string', async () => {
    const api = client();

    const logo = await api.get('/logo.png');
    expectTypeOf(logo.data).toEqualTypeOf<Blob | undefined>();
    expect(logo.data).toBeInstanceOf(Blob);
    expect(new Uint8Array(await logo.data!.arrayBuffer())).toEqual(PNG);
    expect(logo.data!.type).toBe('image/png');
    const text = await api.get('/report');
    expectTypeOf(text.data).toEqualTypeOf<string | undefined>();
    expect(text.data).toBe('line 1\nline 2');
  });

  it('hands an event stream over as the response stream, without waiting for its end', async () => {
    const api = client();

    const r = await api.get('/ticks');
    expect(r.data).toBeInstanceOf(ReadableStream);
    const text = await new Response(r.data as ReadableStream<Uint8Array>).text();
    expect(text).toContain('event: tick');
  });

  it('types a multipart body: a Blob per file field, a FormData for a form without files', () => {
    const api = client();
    type AvatarBody = Parameters<typeof api.post<'/avatar'>>[1]['body'];
    expectTypeOf<{ avatar: Blob; note: string }>().toMatchTypeOf<AvatarBody>();
    expectTypeOf<FormData>().toMatchTypeOf<AvatarBody>();
    // @ts-expect-error a file field takes a Blob, not a string
    void api.post('/avatar', { body: { avatar: 'me.png', note: 'x' } });
    // @ts-expect-error a form without files is sent as a FormData
    void api.post('/notes', { body: { text: 'x' } });
  });
});
