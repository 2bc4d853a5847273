// Express 5: cors, express.json, Zod validation answering 422, one JSON request-log line per
// request to LOG_FILE from a middleware listening for 'finish'.
import cors from 'cors';
import express from 'express';
import { createdUser, HELLO, HOST, PORT, userOf } from './bodies.mjs';
import { invalid, NewUser, openLogFile, requestLine, UserParams } from './features.mjs';

const log = openLogFile();

const app = express();
app.use((req, res, next) => {
  const start = performance.now();
  res.on('finish', () => {
    log.write(requestLine(req.method, req.originalUrl, res.statusCode, performance.now() - start));
  });
  next();
});
app.use(cors());
app.use(express.json());

app.get('/hello', (_req, res) => {
  res.json(HELLO);
});
app.get('/users/:id', (req, res) => {
  const params = UserParams.safeParse(req.params);
  if (!params.success) return res.status(422).json(invalid(params.error.issues));
  res.json(userOf(params.data.id));
});
app.post('/users', (req, res) => {
  const body = NewUser.safeParse(req.body);
  if (!body.success) return res.status(422).json(invalid(body.error.issues));
  res.status(201).json(createdUser(body.data));
});

app.listen(PORT, HOST);
