// The port and the answers every contender gives, floors included: nothing here loads a library,
// so the floors pay for nothing they do not use.

/** The port to listen on. */
export const PORT = Number(process.env.PORT ?? 3000);
/** Servers listen on the loopback interface only. */
export const HOST = '127.0.0.1';

/** The body of `GET /hello`. */
export const HELLO = { hello: 'world' };

/** The body of `GET /users/:id`. */
export function userOf(id) {
  return { id, name: `user ${id}`, email: `user${id}@example.com` };
}

/** The body of `POST /users`. */
export function createdUser(body) {
  return { id: 1, ...body };
}
