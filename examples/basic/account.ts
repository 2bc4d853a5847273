// The signed-in user's own routes, behind a JWT: `c.user` is typed by the claims schema.
//   TOKEN=$(npx tsx -e "import('jose').then(async ({ SignJWT }) => console.log(await new SignJWT({ sub: 'ada', name: 'Ada' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode('development-secret-change-me-0123456789'))))")
//   curl -H "authorization: Bearer $TOKEN" localhost:3000/me
import { z } from 'zod';
import { jwt } from '../../src/auth/index.js';
import { type Controller, guarded } from '../../src/index.js';

/** What the service's tokens carry. */
export const Claims = z.object({ sub: z.string(), name: z.string() });

/** The caller as `GET /me` shows it. */
export const Me = z.object({ id: z.string(), name: z.string() }).meta({ id: 'Me' });

/** `GET /me`: who the token says the caller is. */
export class AccountController implements Controller {
  readonly #authed;

  constructor(jwtSecret: string) {
    this.#authed = guarded(jwt({ secret: jwtSecret, claims: Claims }));
  }

  routes() {
    return [
      this.#authed.get(
        '/me',
        { responses: { 200: Me }, summary: 'The signed-in user', tags: ['account'] },
        (c) => {
          c.log.info('user %s looked at their account', c.user.sub);
          return { id: c.user.sub, name: c.user.name };
        },
      ),
    ];
  }
}
