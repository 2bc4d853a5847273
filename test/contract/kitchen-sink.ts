// A service that uses every routing feature, for the contract tests: what it answers must be
// what its document says, whatever the request.
import { z } from 'zod';
import { apiKey } from '../../src/auth/index.js';
import { describeMiddleware } from '../../src/extend/index.js';
import {
  type App,
  del,
  get,
  head,
  notFound,
  options,
  patch,
  post,
  rateLimit,
  tooManyRequests,
} from '../../src/index.js';
import { everyFeatureApp } from '../docs/fixtures/every-feature.js';

/** The key the guarded group accepts. */
export const API_KEY = 'kitchen-key';

const requireKey = apiKey({
  verify: (key) => (key === API_KEY ? { name: 'cook' } : undefined),
  header: 'x-kitchen-key',
  securityScheme: 'kitchenKey',
});

const quota = describeMiddleware(async (_c, next) => next(), {
  responses: {
    429: { headers: { 'RateLimit-Remaining': { schema: { type: 'integer', minimum: 0 } } } },
  },
});

const Note = z
  .object({ id: z.number().int(), text: z.string().min(1).max(40), pinned: z.boolean() })
  .meta({ id: 'Note', examples: [{ id: 1, text: 'hello', pinned: false }] });

/** The every-feature app plus guards, app middleware and every path and answer shape. */
export function kitchenSink(): App {
  const app = everyFeatureApp();
  app.use(quota);
  app.addRoutes(
    get('/files/:name?', { summary: 'A file or the listing' }, (c) => ({
      name: c.params.name ?? null,
    })),
    get('/static/*', { summary: 'A static file' }, (c) => ({ path: c.params['*'] })),
    get(
      '/orders/:id(^\\d+$)',
      { summary: 'An order by number', params: z.object({ id: z.coerce.number().int() }) },
      (c) => ({
        id: c.params.id,
      }),
    ),
    head('/ping', { summary: 'Liveness without a body' }, () => undefined),
    options(
      '/capabilities',
      {
        summary: 'What the service can do',
        responses: { 200: z.object({ formats: z.array(z.string()) }) },
      },
      () => ({ formats: ['json'] }),
    ),
    post('/touch', { summary: 'Answers nothing' }, () => undefined),
    get('/greeting', { summary: 'A string, sent as JSON' }, () => 'hello'),
    get(
      '/limited',
      { summary: 'Three a minute', middleware: [rateLimit({ max: 3, windowMs: 60_000 })] },
      () => ({ ok: true }),
    ),
    get(
      '/prefs',
      {
        summary: 'Reads a cookie',
        cookies: z.object({ theme: z.enum(['light', 'dark']).optional() }),
      },
      (c) => ({ theme: c.cookies.theme ?? 'light' }),
    ),
    get('/missing/:id', { summary: 'Throws an undeclared 404' }, () => {
      throw notFound('never there');
    }),
    post('/busy', { summary: 'Always too busy', errors: [429] }, () => {
      throw tooManyRequests('try later', 1);
    }),
    get(
      '/report',
      {
        summary: 'A text report',
        media: { responses: 'text/plain' },
        responses: { 200: z.string() },
      },
      (c) => c.reply.type('text/plain; charset=utf-8').send('all good') as never,
    ),
  );
  app.group('/notes', requireKey).addRoutes(
    get(
      '/',
      {
        summary: 'List notes',
        query: z.object({ pinned: z.enum(['yes', 'no']).optional() }),
        responses: { 200: z.array(Note) },
      },
      () => [{ id: 1, text: 'hello', pinned: false }],
    ),
    post(
      '/',
      {
        summary: 'Add a note',
        body: Note.omit({ id: true }),
        responses: { 201: Note },
        examples: { body: { text: 'new', pinned: true } },
      },
      (c) => {
        c.header('location', '/notes/2');
        return c.created({ id: 2, ...c.body });
      },
    ),
    patch(
      '/:id',
      {
        summary: 'Edit a note',
        params: z.object({ id: z.coerce.number().int().min(1) }),
        body: z.object({ text: z.string().min(1).max(40).optional() }),
        responses: { 200: Note },
      },
      (c) => ({ id: c.params.id, text: c.body.text ?? 'same', pinned: false }),
    ),
    del(
      '/:id',
      {
        summary: 'Delete a note',
        params: z.object({ id: z.coerce.number().int() }),
        responses: { 204: z.undefined() },
      },
      (c) => c.noContent(),
    ),
  );
  return app;
}
