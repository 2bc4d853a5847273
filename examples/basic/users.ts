import { z } from 'zod';
import {
  type App,
  type Controller,
  conflict,
  del,
  get,
  type HealthChecker,
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

/** An in-memory store; a real service would talk to a database here. */
export class UserStore implements HealthChecker {
  readonly #users = new Map<number, UserT>();
  #next = 1;

  name(): string {
    return 'user-store';
  }

  check(): void {
    if (this.#users.size > 10_000) throw new Error('store is full');
  }

  list(): UserT[] {
    return [...this.#users.values()];
  }

  find(id: number): UserT | undefined {
    return this.#users.get(id);
  }

  add(input: Omit<UserT, 'id'>): UserT {
    if ([...this.#users.values()].some((u) => u.email === input.email)) {
      throw conflict(`a user with email ${input.email} already exists`);
    }
    const user = { id: this.#next++, ...input };
    this.#users.set(user.id, user);
    return user;
  }

  remove(id: number): boolean {
    return this.#users.delete(id);
  }
}

const IdParams = z.object({ id: z.coerce.number().int().positive() });

/** Every users route needs the bearer token that the group's middleware checks. */
const bearer = [{ bearerAuth: [] }];

/** The users endpoints. */
export class UsersController implements Controller {
  constructor(private readonly users: UserStore) {}

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
        (c) => {
          const all = this.users.list();
          const { offset, limit } = c.query;
          return paginate(all.slice(offset, offset + limit), all.length, c.query);
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
        (c) => {
          const user = this.users.find(c.params.id);
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
        (c) => c.created(this.users.add(c.body)),
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
        (c) => {
          if (!this.users.remove(c.params.id)) throw notFound(`user ${c.params.id} not found`);
          return c.noContent();
        },
      ),
    ];
  }
}

/** The users module: its store, controller, health checker and shutdown hook. */
export class UsersModule implements Module {
  register(app: App): void {
    const users = new UserStore();
    users.add({ name: 'Ada Lovelace', email: 'ada@example.com' });
    app.registerController(new UsersController(users));
    app.registerHealthChecker(users);
    app.onShutdown(function saveUsers() {
      app.logger.info('saving %d users before exit', users.list().length);
    });
  }
}
