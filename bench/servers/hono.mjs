// Hono on @hono/node-server: its logger middleware printing to LOG_FILE, cors, zod-validator
// answering 422.
import { serve } from '@hono/node-server';
import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { logger } from 'hono/logger';
import { createdUser, HELLO, HOST, PORT, userOf } from './bodies.mjs';
import { invalid, NewUser, openLogFile, UserParams } from './features.mjs';

const log = openLogFile();
// The logger prints a line when a request comes in and one when it is answered; only the second
// is written, so that every contender writes one line per request.
const print = (line) => {
  if (line.startsWith('-->')) log.write(`${line}\n`);
};
const on422 = (result, c) => {
  if (!result.success) return c.json(invalid(result.error.issues), 422);
};

const app = new Hono();
app.use(logger(print));
app.use(cors());
app.get('/hello', (c) => c.json(HELLO));
app.get('/users/:id', zValidator('param', UserParams, on422), (c) =>
  c.json(userOf(c.req.valid('param').id)),
);
app.post('/users', zValidator('json', NewUser, on422), (c) =>
  c.json(createdUser(c.req.valid('json')), 201),
);

serve({ fetch: app.fetch, port: PORT, hostname: HOST });
