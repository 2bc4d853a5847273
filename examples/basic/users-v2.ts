// Version 2 of the users resource: a user's `name` is now `displayName`. Served under /api/v2
// beside version 1, which is deprecated (see app.ts) and answers until its sunset.
import { z } from 'zod';
import type { Database } from '../../src/db/index.js';
import {
  type App,
  type Controller,
  get,
  type Module,
  notFound,
  paginate,
  paginated,
  pagination,
} from '../../src/index.js';
import { UserRepository } from './users.js';

/** A user as version 2 shows it. */
export const UserV2 = z
  .object({
    id: z.number().int().meta({ description: 'The user id.' }),
    displayName: z.string().min(1).max(100),
    email: z.email(),
  })
  .meta({ id: 'UserV2' });

type UserV2T = z.infer<typeof UserV2>;

const IdParams = z.object({ id: z.coerce.number().int().positive() });
const bearer = [{ bearerAuth: [] }];

function v2(user: { id: number; name: string; email: string }): UserV2T {
  return { id: user.id, displayName: user.name, email: user.email };
}

/** The users endpoints of version 2, read-only. */
export class UsersV2Controller implements Controller {
  constructor(private readonly users: UserRepository) {}

  routes() {
    return [
      get(
        '/users',
        {
          query: pagination({ defaultLimit: 20, maxLimit: 100 }),
          responses: { 200: paginated(UserV2) },
          errors: [401],
          security: bearer,
          summary: 'List users',
          tags: ['users'],
          operationId: 'listUsersV2',
        },
        async (c) => {
          const { items, total } = await this.users.page(c.query.limit, c.query.offset);
          return paginate(items.map(v2), total, c.query);
        },
      ),
      get(
        '/users/:id',
        {
          params: IdParams,
          responses: { 200: UserV2 },
          errors: [401, 404],
          security: bearer,
          summary: 'Get a user',
          tags: ['users'],
          operationId: 'getUserV2',
        },
        async (c) => {
          const user = await this.users.find(c.params.id);
          if (!user) throw notFound(`user ${c.params.id} not found`);
          return v2(user);
        },
      ),
    ];
  }
}

/** The version 2 users module, on the app's database. */
export class UsersV2Module implements Module {
  constructor(private readonly db: Database) {}

  register(app: App): void {
    app.registerController(new UsersV2Controller(new UserRepository(this.db)));
  }
}
