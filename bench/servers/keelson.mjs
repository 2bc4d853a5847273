// Keelson with its production defaults (CORS, security headers, request ids, checked responses,
// request log, problem errors, health; no docs page or dev panel, which production leaves out).
// Its JSON request log goes to stdout, as a deployed service's does; the bench points stdout at
// the log file. Variants: EXTRA_ROUTES=n adds n more routes (the cost of a bigger route table),
// MIDDLEWARE=n wraps every route in n app-wide middleware that do nothing (the slope), and
// OFF=a,b turns defaults off for bench/costs.ts: cors, helmet, requestId, log (of /users/42),
// params (no params schema on /users/:id) and response (no response schema on it). ENGINE=bun
// serves it through Bun.serve instead of Fastify (run it with `bun`).
import { App, get, post } from '../../dist/index.js';
import { createdUser, HELLO, HOST, PORT, userOf } from './bodies.mjs';
import { NewUser, User, UserParams } from './features.mjs';

const off = new Set((process.env.OFF ?? '').split(',').filter(Boolean));
const app = new App({
  serviceName: 'bench',
  port: PORT,
  host: HOST,
  env: 'production',
  ...(process.env.ENGINE ? { engine: process.env.ENGINE } : {}),
  ...(off.has('cors') ? { cors: false } : {}),
  ...(off.has('helmet') ? { helmet: false } : {}),
  ...(off.has('requestId') ? { requestId: false } : {}),
  ...(off.has('log') ? { requestLog: { exclude: ['/users/42'] } } : {}),
});
const userOptions = {
  ...(off.has('params') ? {} : { params: UserParams }),
  ...(off.has('response') ? {} : { responses: { 200: User } }),
};

for (let i = 0; i < Number(process.env.MIDDLEWARE ?? 0); i++) app.use((_c, next) => next());
for (let i = 0; i < Number(process.env.EXTRA_ROUTES ?? 0); i++) {
  app.addRoutes(
    get(`/things${i}/:id`, { params: UserParams, responses: { 200: User } }, (c) =>
      userOf(c.params.id),
    ),
  );
}

app.addRoutes(
  get('/hello', () => HELLO),
  get('/users/:id', userOptions, (c) => userOf(Number(c.params.id))),
  post('/users', { body: NewUser, responses: { 201: User } }, (c) =>
    c.created(createdUser(c.body)),
  ),
);

await app.listen();
