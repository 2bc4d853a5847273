import type { Context } from './context.js';
import type { Middleware } from './types.js';

/** The innermost step of a chain: validation and the handler; it may answer synchronously. */
export type Endpoint = (c: Context) => unknown;

/**
 * Composes middleware around an endpoint once, at registration. With no middleware the
 * endpoint itself is returned, so a route without middleware pays nothing.
 */
export function compose(middleware: readonly Middleware[], endpoint: Endpoint): Endpoint {
  if (middleware.length === 0) return endpoint;
  const layers = [...middleware];
  return function composed(c: Context): Promise<unknown> {
    let index = -1;
    const dispatch = async (i: number): Promise<unknown> => {
      if (i <= index) throw new Error('next() called more than once in one middleware');
      index = i;
      if (i === layers.length) return endpoint(c);
      let called = false;
      let inner: unknown;
      const next = async (): Promise<unknown> => {
        called = true;
        inner = await dispatch(i + 1);
        return inner;
      };
      const returned = await layers[i]!(c, next);
      // A middleware that awaited next() but forgot to return it still passes the answer on.
      return returned === undefined && called ? inner : returned;
    };
    return dispatch(0);
  };
}
