// Keelson as `npm run dev` runs it: env 'development' (a text request log with colours off,
// the docs page, the dev panel), with the same routes; its log goes to stdout, which the bench
// points at the log file.
import { App, get, post } from '../../dist/index.js';
import { createdUser, HELLO, HOST, PORT, userOf } from './bodies.mjs';
import { NewUser, User, UserParams } from './features.mjs';

const app = new App({ serviceName: 'bench', port: PORT, host: HOST, env: 'development' });

app.addRoutes(
  get('/hello', () => HELLO),
  get('/users/:id', { params: UserParams, responses: { 200: User } }, (c) => userOf(c.params.id)),
  post('/users', { body: NewUser, responses: { 201: User } }, (c) =>
    c.created(createdUser(c.body)),
  ),
);

await app.listen();
