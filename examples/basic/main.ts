// The example service: `npm start` runs it. Try:
//   curl localhost:3000/health
//   curl -H 'authorization: Bearer demo-token' localhost:3000/api/v1/users
//   open http://localhost:3000/docs
import { App, get, type Middleware, unauthorized } from '../../src/index.js';
import { UsersModule } from './users.js';

const app = new App({
  serviceName: 'users-api',
  port: Number(process.env.PORT ?? 3000),
  env:
    (process.env.NODE_ENV as 'development' | 'staging' | 'production' | undefined) ?? 'development',
  docs: {
    title: 'Users API',
    description: 'An example Keelson service.',
    servers: ['http://localhost:3000 - local'],
  },
});

/** Lets a request through only with the demo bearer token. */
const requireAuth: Middleware = async function requireAuth(c, next) {
  if (c.request.headers.authorization !== `Bearer ${process.env.API_TOKEN ?? 'demo-token'}`) {
    throw unauthorized('a valid bearer token is required');
  }
  return next();
};

app.addRoutes(
  get('/', { summary: 'Service banner' }, () => ({ service: 'users-api', docs: '/docs' })),
);
app.group('/api/v1', requireAuth).use(new UsersModule());

await app.listen();
