import { z } from 'zod';
import { type Database, type DatabaseOptions, database } from '../../src/db/index.js';
import {
  type App,
  type Controller,
  conflict,
  del,
  get,
  type Module,
  notFound,
  paginate,
  paginated,
  pagination,
  post,
} from '../../src/index.js';

/** A user as the API shows it. */
export const User = z
  .object({
    id: z.number().int().meta({ description: 'The user id.' }),
    name: z.string().min(1).max(100),
    email: z.email(),
  })
  .meta({ id: 'User' });

/** What a client sends to create a user. */
export const NewUser = User.omit({ id: true }).meta({ id: 'NewUser' });

type UserT = z.infer<typeof User>;

/** The migrations and the constraint mapping of the example's database, for `testDatabase()` too. */
export const USERS_DATABASE = {
  migrations: new URL('./migrations/', import.meta.url),
  constraints: { users_email_key: () => conflict('a user with this email already exists') },
} satisfies DatabaseOptions;

/**
 * The example's database: `url` is `postgres://…` for a server; unset or empty, the embedded
 * database in `.keelson/db`; `memory://`, a new one in memory. Migrated at the app's start.
 */
export function usersDatabase(url: string | undefined): Database {
  return database({ url, ...USERS_DATABASE });
}

/** The users, in the `users` table of the database. */
export class UserRepository {
  constructor(private readonly db: Database) {}

  /** A page of users in id order, and how many there are. */
  async page(limit: number, offset: number): Promise<{ items: UserT[]; total: number }> {
    const items = await this.db.sql<UserT>`
      select id, name, email from users order by id limit ${limit} offset ${offset}`;
    const { total } = await this.db.sql<{ total: number }>`
      select count(*)::int as total from users`.one();
    return { items, total };
  }

  find(id: number): Promise<UserT | undefined> {
    return this.db.sql<UserT>`select id, name, email from users where id = ${id}`.maybeOne();
  }

  /** Adds a user; an email already taken is a 409 (the `users_email_key` constraint). */
  add(input: Omit<UserT, 'id'>): Promise<UserT> {
    return this.db.sql<UserT>`
      insert into users (name, email) values (${input.name}, ${input.email})
      returning id, name, email`.one();
  }

  async remove(id: number): Promise<boolean> {
    return (await this.db.sql`delete from users where id = ${id} returning id`).length > 0;
  }
}

const IdParams = z.object({ id: z.coerce.number().int().positive() });

/** Every users route needs the bearer token that the group's middleware checks. */
const bearer = [{ bearerAuth: [] }];

/** The users endpoints. */
export class UsersController implements Controller {
  constructor(private readonly users: UserRepository) {}

  routes() {
    return [
      get(
        '/users',
        {
          query: pagination({ defaultLimit: 20, maxLimit: 100 }),
          responses: { 200: paginated(User) },
          errors: [401],
          security: bearer,
          summary: 'List users',
          tags: ['users'],
        },
        async (c) => {
          const { items, total } = await this.users.page(c.query.limit, c.query.offset);
          return paginate(items, total, c.query);
        },
      ),
      get(
        '/users/:id',
        {
          params: IdParams,
          responses: { 200: User },
          errors: [401, 404],
          security: bearer,
          summary: 'Get a user',
          tags: ['users'],
        },
        async (c) => {
          const user = await this.users.find(c.params.id);
          if (!user) throw notFound(`user ${c.params.id} not found`);
          return user;
        },
      ),
      post(
        '/users',
        {
          body: NewUser,
          responses: { 201: User },
          errors: [401, 409],
          security: bearer,
          summary: 'Create a user',
          tags: ['users'],
        },
        async (c) => c.created(await this.users.add(c.body)),
      ),
      del(
        '/users/:id',
        {
          params: IdParams,
          responses: { 204: z.null() },
          errors: [401, 404],
          security: bearer,
          summary: 'Delete a user',
          tags: ['users'],
        },
        async (c) => {
          if (!(await this.users.remove(c.params.id))) {
            throw notFound(`user ${c.params.id} not found`);
          }
          return c.noContent();
        },
      ),
    ];
  }
}

/** The users module: its repository on the app's database (which `createApp` uses on the app), and its controller. */
export class UsersModule implements Module {
  constructor(private readonly db: Database) {}

  register(app: App): void {
    app.registerController(new UsersController(new UserRepository(this.db)));
  }
}
