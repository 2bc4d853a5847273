// The floor on Bun: Elysia 1.4 with no features at all.
import { Elysia } from 'elysia';
import { createdUser, HELLO, HOST, PORT, userOf } from './bodies.mjs';

new Elysia()
  .get('/hello', () => HELLO)
  .get('/users/:id', ({ params }) => userOf(Number(params.id)))
  .post('/users', ({ body, set }) => {
    set.status = 201;
    return createdUser(body);
  })
  .listen({ port: PORT, hostname: HOST });
