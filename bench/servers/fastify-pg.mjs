// fastify.mjs with `GET /users/:id` reading its row from the PostgreSQL server at DATABASE_URL
// through a `pg` Pool of 10 connections (Keelson's default), by hand: 404 when there is none.
import cors from '@fastify/cors';
import Fastify from 'fastify';
import pg from 'pg';
import { pino } from 'pino';
import { z } from 'zod';
import { createdUser, HELLO, HOST, PORT } from './bodies.mjs';
import { exitOnSigterm, invalid, NewUser, User, UserParams } from './features.mjs';

const destination = pino.destination({ dest: process.env.LOG_FILE, sync: false, minLength: 4096 });
exitOnSigterm(() => destination.flushSync());
const log = pino(destination);
const userJson = z.toJSONSchema(User, { target: 'draft-7' });
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });

const app = Fastify({ logger: false });
await app.register(cors, { origin: '*' });
app.setValidatorCompiler(({ schema }) => (data) => {
  const result = schema.safeParse(data);
  return result.success ? { value: result.data } : { error: result.error };
});
app.setErrorHandler((error, _request, reply) => {
  if (error.code === 'FST_ERR_VALIDATION' && error instanceof z.ZodError) {
    return reply.code(422).send(invalid(error.issues));
  }
  return reply.send(error);
});
app.addHook('onResponse', (request, reply, done) => {
  log.info({
    method: request.method,
    path: request.url,
    status: reply.statusCode,
    duration: reply.elapsedTime,
  });
  done();
});

app.get('/hello', () => HELLO);
app.get(
  '/users/:id',
  { schema: { params: UserParams, response: { 200: userJson } } },
  async (request, reply) => {
    const { rows } = await pool.query('select id, name, email from users where id = $1', [
      request.params.id,
    ]);
    if (rows.length === 0) return reply.code(404).send({ error: 'not found' });
    return rows[0];
  },
);
app.post('/users', { schema: { body: NewUser, response: { 201: userJson } } }, (request, reply) =>
  reply.code(201).send(createdUser(request.body)),
);

await app.listen({ port: PORT, host: HOST });
