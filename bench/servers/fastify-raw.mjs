// The floor: Fastify 5 with no features at all.
import Fastify from 'fastify';
import { createdUser, HELLO, HOST, PORT, userOf } from './bodies.mjs';

const app = Fastify({ logger: false });
app.get('/hello', () => HELLO);
app.get('/users/:id', (request) => userOf(Number(request.params.id)));
app.post('/users', (request, reply) => reply.code(201).send(createdUser(request.body)));
await app.listen({ port: PORT, host: HOST });
