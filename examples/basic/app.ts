// The example service, everything but `listen()`: main.ts runs it, the tests and the client
// generator build it.
import type { Prefixed, RoutesOf } from '../../src/client/index.js';
import type { Database } from '../../src/db/index.js';
import { App, type Env, get, type Middleware, rateLimit, unauthorized } from '../../src/index.js';
import type { Logger } from '../../src/logger/index.js';
import { AccountController } from './account.js';
import { MediaModule, ticksRoute } from './media.js';
import { type UsersController, UsersModule, usersDatabase } from './users.js';
import { type UsersV2Controller, UsersV2Module } from './users-v2.js';

/** The service banner at `/`. */
const banner = get('/', { summary: 'Service banner', operationId: 'getBanner' }, () => ({
  service: 'users-api',
  docs: '/docs',
}));

/** Five quotes a minute per client IP; the sixth answers 429 with Retry-After. One per app. */
function quoteRoute() {
  return get(
    '/quote',
    {
      summary: 'A quote, at most five a minute per client',
      operationId: 'getQuote',
      middleware: [rateLimit({ max: 5, windowMs: 60_000 })],
    },
    () => ({ quote: 'Premature optimization is the root of all evil.' }),
  );
}

/** The routes every version has: the banner, the quote and the account. */
type Shared = RoutesOf<[typeof banner, ReturnType<typeof quoteRoute>, AccountController]>;

/**
 * The routes of API version 1 (its users routes deprecated), for `createClient<ApiV1>()` from
 * `keelson/client`; a client package imports it with `import type`, so none of the server comes
 * along.
 */
export type ApiV1 = Shared | Prefixed<'/api/v1', RoutesOf<UsersController>>;

/** The routes of API version 2, for `createClient<ApiV2>()`. */
export type ApiV2 = Shared | Prefixed<'/api/v2', RoutesOf<UsersV2Controller>>;

/** Every route of the service, both versions. */
export type Api = ApiV1 | ApiV2;

/** When version 1 of the users routes stops answering. */
export const V1_SUNSET = new Date('2027-06-30T00:00:00Z');

/** Lets a request through only with the demo bearer token. */
const requireAuth: Middleware = async function requireAuth(c, next) {
  if (c.request.headers.authorization !== `Bearer ${process.env.API_TOKEN ?? 'demo-token'}`) {
    throw unauthorized('a valid bearer token is required');
  }
  return next();
};

/** What `createApp` takes; everything has a default. */
export interface CreateAppOptions {
  /** @default Number(process.env.PORT ?? 3000) */
  port?: number;
  /** @default process.env.HOST ?? '0.0.0.0' */
  host?: string;
  /** @default process.env.NODE_ENV when it is one of these, else 'development' */
  env?: Env;
  /** The HMAC secret of the tokens `GET /me` accepts. @default a development-only secret */
  jwtSecret?: string;
  /**
   * Where the users are kept. main.ts passes `usersDatabase(DATABASE_URL)`: the embedded database
   * in `.keelson/db`, or the PostgreSQL server DATABASE_URL names.
   * @default usersDatabase('memory://'): a new database in memory, for tests
   */
  db?: Database;
  /** Where the app logs (tests keep it quiet). @default stdout, text in development */
  logger?: Logger;
}

/** The secret the example uses when none is configured; never use it in production. */
export const DEVELOPMENT_JWT_SECRET = 'development-secret-change-me-0123456789';

function envFromProcess(): Env {
  const env = process.env.NODE_ENV;
  return env === 'staging' || env === 'production' ? env : 'development';
}

/** Builds the users-api example service. */
export function createApp(options: CreateAppOptions = {}): App {
  const app = new App({
    serviceName: 'users-api',
    port: options.port ?? Number(process.env.PORT ?? 3000),
    host: options.host ?? process.env.HOST ?? '0.0.0.0',
    env: options.env ?? envFromProcess(),
    ...(options.logger ? { logger: options.logger } : {}),
    docs: {
      title: 'Users API',
      description: 'An example Keelson service.',
      servers: ['http://localhost:3000 - local'],
      tags: [
        { name: 'users', description: 'User accounts' },
        { name: 'account', description: 'The signed-in user' },
      ],
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
    },
  });
  const db = options.db ?? usersDatabase('memory://');
  app.use(db);
  app.addRoutes(banner, ticksRoute);
  app.registerController(new AccountController(options.jwtSecret ?? DEVELOPMENT_JWT_SECRET));
  app.addRoutes(quoteRoute());
  // Version 1: its users routes deprecated in favour of version 2's (a nested group with no
  // prefix of its own); its media routes are not.
  const v1 = app.group('/api/v1', { version: 'v1' }, requireAuth);
  v1.group('/', { deprecated: { sunset: V1_SUNSET, link: '/api/v2/users' } }).use(
    new UsersModule(db),
  );
  v1.use(new MediaModule());
  app.group('/api/v2', { version: 'v2' }, requireAuth).use(new UsersV2Module(db));
  return app;
}
