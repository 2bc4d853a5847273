// Elysia 1.4 on Bun with the same features as the other feature contenders: one request-log line
// per request to LOG_FILE (from onAfterResponse, through the same sonic-boom), CORS's
// `access-control-allow-origin: *` (set in onRequest, as @elysiajs/cors does for a simple
// request; the plugin is not installed), and the same Zod schemas as Standard Schema validators,
// a bad request answered 422 with the same body as the hand-assembled contenders.
import { Elysia } from 'elysia';
import { createdUser, HELLO, HOST, PORT, userOf } from './bodies.mjs';
import { NewUser, openLogFile, requestLine, User, UserParams } from './features.mjs';

// onAfterResponse runs once the answer has gone out: on SIGTERM, let the last ones write.
const log = openLogFile(50);
const started = new WeakMap();

const app = new Elysia()
  .onRequest(({ request, set }) => {
    started.set(request, performance.now());
    set.headers['access-control-allow-origin'] = '*';
  })
  .onAfterResponse(({ request, path, set }) => {
    const status = typeof set.status === 'number' ? set.status : 200;
    const ms = performance.now() - (started.get(request) ?? performance.now());
    log.write(requestLine(request.method, path, status, ms));
  })
  .onError(({ code, error, set }) => {
    if (code !== 'VALIDATION') return;
    set.status = 422;
    return {
      status: 422,
      title: 'Unprocessable Content',
      issues: error.all.map((issue) => ({ path: issue.path, message: issue.message })),
    };
  })
  .get('/hello', () => HELLO)
  .get('/users/:id', ({ params }) => userOf(params.id), {
    params: UserParams,
    response: { 200: User },
  })
  .post(
    '/users',
    ({ body, set }) => {
      set.status = 201;
      return createdUser(body);
    },
    { body: NewUser, response: { 201: User } },
  )
  .listen({ port: PORT, hostname: HOST });

export default app;
