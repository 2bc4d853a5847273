import { App, type Env, loadConfig } from 'keelson';
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
}

/** The environment variables the service reads, checked: a bad one stops the start, named. */
const Environment = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  NODE_ENV: z.enum(['development', 'staging', 'production']).default('development'),
});

/** The config from PORT, HOST and NODE_ENV, read from `.env` and the environment (which wins). */
export function configFromEnv(vars: NodeJS.ProcessEnv = process.env): AppConfig {
  const { PORT, HOST, NODE_ENV } = loadConfig(Environment, { env: vars });
  return { port: PORT, host: HOST, env: NODE_ENV };
}

/** Builds the service without listening: main.ts listens, tests inject, `keelson routes` reads it. */
export function createApp(config: AppConfig = {}): App {
  const app = new App({ serviceName: '__service__', ...config });
  // Modules: `npx keelson generate module <name>` prints the lines to add here.
  app.use(new NotesModule());
  return app;
}
