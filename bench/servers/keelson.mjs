// Keelson with its production defaults (CORS, security headers, request ids, checked responses,
// request log, problem errors, health; no docs page or dev panel, which production leaves out),
// its JSON request log written to LOG_FILE through sonic-boom.
import sonicBoom from 'sonic-boom';
import { App, get, post } from '../../dist/index.js';
import { LogFormat, newLoggerWithFormat } from '../../dist/logger/index.js';
import { createdUser, HELLO, HOST, PORT, userOf } from './bodies.mjs';
import { NewUser, User, UserParams } from './features.mjs';

const writer = new sonicBoom.SonicBoom({
  dest: process.env.LOG_FILE,
  sync: false,
  minLength: 4096,
});
const app = new App({
  serviceName: 'bench',
  port: PORT,
  host: HOST,
  env: 'production',
  logger: newLoggerWithFormat(true, LogFormat.JSON).withWriter(writer),
});

app.addRoutes(
  get('/hello', () => HELLO),
  get('/users/:id', { params: UserParams, responses: { 200: User } }, (c) => userOf(c.params.id)),
  post('/users', { body: NewUser, responses: { 201: User } }, (c) =>
    c.created(createdUser(c.body)),
  ),
);

await app.listen();
