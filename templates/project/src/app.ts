import { App, type Env } from 'keelson';
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

/** The config from PORT, HOST and NODE_ENV (main.ts loads `.env` first, when there is one). */
export function configFromEnv(vars: NodeJS.ProcessEnv = process.env): AppConfig {
  const env = vars.NODE_ENV;
  return {
    port: vars.PORT === undefined || vars.PORT === '' ? 3000 : Number(vars.PORT),
    host: vars.HOST || '0.0.0.0',
    env: env === 'production' || env === 'staging' ? env : 'development',
  };
}

/** Builds the service without listening: main.ts listens, tests inject, `keelson routes` reads it. */
export function createApp(config: AppConfig = {}): App {
  const app = new App({ serviceName: '__service__', ...config });
  // Modules: `npx keelson generate module <name>` prints the lines to add here.
  app.use(new NotesModule());
  return app;
}
