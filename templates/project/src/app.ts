import { App, type Env, loadConfig } from 'keelson';
import { type Database, database } from 'keelson/db';
import { z } from 'zod';
import { NotesModule } from './modules/notes/index.js';

/** What the service is configured with; main.ts reads it from the environment. */
export interface AppConfig {
  /** @default 3000 */
  port?: number;
  /** @default '0.0.0.0' */
  host?: string;
  /** @default 'development' */
  env?: Env;
  /** `postgres://…` for a PostgreSQL server. @default DATABASE_URL, else the embedded database in `.keelson/db` */
  databaseUrl?: string | undefined;
  /** The database to use instead (tests pass `await testDatabase({ migrations: 'migrations' })`). */
  db?: Database;
}

/** The environment variables the service reads, checked: a bad one stops the start, named. */
const Environment = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  NODE_ENV: z.enum(['development', 'staging', 'production']).default('development'),
  DATABASE_URL: z.string().optional(),
});

/** The config from PORT, HOST, NODE_ENV and DATABASE_URL, read from `.env` and the environment (which wins). */
export function configFromEnv(vars: NodeJS.ProcessEnv = process.env): AppConfig {
  const { PORT, HOST, NODE_ENV, DATABASE_URL } = loadConfig(Environment, { env: vars });
  return { port: PORT, host: HOST, env: NODE_ENV, databaseUrl: DATABASE_URL };
}

/** Builds the service without listening: main.ts listens, tests inject, `keelson routes` reads it. */
export function createApp(config: AppConfig = {}): App {
  const { databaseUrl, db: given, ...settings } = config;
  const app = new App({ serviceName: '__service__', ...settings });
  // Migrated at start, closed last at shutdown; `npx keelson db status` shows the migrations.
  const url = databaseUrl ?? process.env.DATABASE_URL;
  const db = given ?? database({ url, migrations: 'migrations' });
  app.use(db);
  // Modules: `npx keelson generate module <name>` prints the lines to add here.
  app.use(new NotesModule(db));
  return app;
}
