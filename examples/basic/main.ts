// The example service: `npm start` runs it. Try:
//   curl localhost:3000/health
//   curl -H 'authorization: Bearer demo-token' localhost:3000/api/v1/users
//   open http://localhost:3000/docs
//   curl localhost:3000/metrics
//   curl -N localhost:3000/ticks
//   curl -H 'authorization: Bearer demo-token' -F avatar=@me.png -F note=hi localhost:3000/api/v1/avatar
import { z } from 'zod';
import { loadConfig } from '../../src/index.js';
import { createApp, DEVELOPMENT_JWT_SECRET } from './app.js';
import { addIntegrations } from './integrations.js';
import { usersDatabase } from './users.js';

// PORT, JWT_SECRET and DATABASE_URL from the environment or a .env file, checked before anything
// starts. Without DATABASE_URL the users are kept in the embedded database in .keelson/db.
const config = loadConfig(
  z.object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    JWT_SECRET: z.string().min(32).default(DEVELOPMENT_JWT_SECRET),
    DATABASE_URL: z.string().optional(),
  }),
);

const app = createApp({
  port: config.PORT,
  jwtSecret: config.JWT_SECRET,
  db: usersDatabase(config.DATABASE_URL),
});
await addIntegrations(app).listen();
