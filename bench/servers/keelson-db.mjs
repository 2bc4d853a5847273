// Keelson with its production defaults, `GET /users/:id` reading its row through `db.sql`:
// from the PostgreSQL server at DATABASE_URL (node-postgres, the default pool of 10), or, with
// DATABASE_URL unset, from the embedded engine (PGlite) in DB_DATA_DIR, seeded on first start.
// The other two routes answer as in keelson.mjs.
import { database } from '../../dist/db/index.js';
import { App, get, post } from '../../dist/index.js';
import { createdUser, HELLO, HOST, PORT } from './bodies.mjs';
import { NewUser, User, UserParams } from './features.mjs';

const app = new App({ serviceName: 'bench', port: PORT, host: HOST, env: 'production' });
const db = database({ url: process.env.DATABASE_URL, dataDir: process.env.DB_DATA_DIR });
app.use(db);
if (!process.env.DATABASE_URL) {
  app.onStart(async () => {
    await db.query('create table if not exists users (id int primary key, name text, email text)');
    await db.query(
      `insert into users select i, 'user ' || i, 'user' || i || '@example.com'
       from generate_series(1, 10000) as i on conflict do nothing`,
    );
  });
}

app.addRoutes(
  get('/hello', () => HELLO),
  get('/users/:id', { params: UserParams, responses: { 200: User } }, (c) =>
    db.sql`select id, name, email from users where id = ${c.params.id}`.one(),
  ),
  post('/users', { body: NewUser, responses: { 201: User } }, (c) =>
    c.created(createdUser(c.body)),
  ),
);

await app.listen();
