// Fastify 5 assembled by hand with the same features: @fastify/cors, Zod validation answering
// 422, a response serializer, and one pino line per request to LOG_FILE from onResponse.
import cors from '@fastify/cors';
import Fastify from 'fastify';
import { pino } from 'pino';
import { z } from 'zod';
import { createdUser, HELLO, HOST, PORT, userOf } from './bodies.mjs';
import { exitOnSigterm, invalid, NewUser, User, UserParams } from './features.mjs';

const destination = pino.destination({ dest: process.env.LOG_FILE, sync: false, minLength: 4096 });
exitOnSigterm(() => destination.flushSync());
const log = pino(destination);
const userJson = z.toJSONSchema(User, { target: 'draft-7' });

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
app.get('/users/:id', { schema: { params: UserParams, response: { 200: userJson } } }, (request) =>
  userOf(request.params.id),
);
app.post('/users', { schema: { body: NewUser, response: { 201: userJson } } }, (request, reply) =>
  reply.code(201).send(createdUser(request.body)),
);

await app.listen({ port: PORT, host: HOST });
