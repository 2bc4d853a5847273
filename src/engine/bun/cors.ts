/**
 * CORS on the Bun engine, with the options of @fastify/cors that Keelson's Fastify engine passes
 * and the same answers: the allow-origin (and credentials, exposed headers) on every answer, a
 * preflight answered 204 with the allowed methods and headers, `Vary` as the plugin sets it. An
 * `OPTIONS` that is no preflight is answered like an unrouted request. Options the engine does
 * not serve (an origin function, a delegator, another hook) are refused at startup.
 * @module
 */
import type { FastifyCorsOptions } from '@fastify/cors';
import { refuseOnBunEngine } from '../../runtime.js';
import type { BunReply } from './reply.js';
import type { BunRequest } from './request.js';

type OriginOption = boolean | string | RegExp | readonly (string | RegExp)[];

/** The CORS step of the Bun engine. */
export interface BunCors {
  /**
   * Adds the CORS headers; answers a preflight (true) unless the app routes `OPTIONS` on the
   * path itself (`ownOptions`).
   */
  apply(request: BunRequest, reply: BunReply, ownOptions: boolean): boolean;
}

const SERVED = new Set([
  'origin',
  'methods',
  'allowedHeaders',
  'exposedHeaders',
  'credentials',
  'maxAge',
  'optionsSuccessStatus',
  'preflight',
  'cacheControl',
  'strictPreflight',
  'hideOptionsRoute',
  'logLevel',
]);

const list = (value: string | readonly string[]): string =>
  typeof value === 'string' ? value : value.join(', ');

function addVary(reply: BunReply, name: string): void {
  const current = reply.getHeader('vary');
  const text = Array.isArray(current) ? current.join(', ') : current;
  if (text === undefined || text === '') reply.header('vary', name);
  else if (
    text !== '*' &&
    !text
      .toLowerCase()
      .split(/\s*,\s*/)
      .includes(name.toLowerCase())
  ) {
    reply.header('vary', `${text}, ${name}`);
  }
}

function allows(origin: string | undefined, option: OriginOption): boolean {
  if (Array.isArray(option)) return option.some((o) => allows(origin, o));
  if (typeof option === 'string') return origin === option;
  if (option instanceof RegExp) {
    option.lastIndex = 0;
    return origin !== undefined && option.test(origin);
  }
  return option === true;
}

/** The CORS step for `options`, methods defaulting to `methods`. @throws EngineUnsupportedError */
export function bunCors(options: FastifyCorsOptions, methods: readonly string[]): BunCors {
  for (const key of Object.keys(options)) {
    if (!SERVED.has(key)) refuseOnBunEngine(`The cors option ${key}`);
  }
  if (typeof options.origin === 'function') refuseOnBunEngine('A cors origin function');
  let origin = (options.origin ?? '*') as OriginOption;
  if (Array.isArray(origin) && origin.includes('*')) origin = '*';
  const allowMethods = list((options.methods as string | string[] | undefined) ?? [...methods]);
  const allowedHeaders = options.allowedHeaders as string | string[] | undefined | null;
  const exposed = options.exposedHeaders as string | string[] | undefined | null;
  const successStatus = options.optionsSuccessStatus ?? 204;
  const preflight = options.preflight ?? true;
  const cacheControl =
    typeof options.cacheControl === 'number'
      ? `max-age=${options.cacheControl}`
      : typeof options.cacheControl === 'string'
        ? options.cacheControl
        : undefined;
  return {
    apply(request, reply, ownOptions) {
      if (typeof origin !== 'string' && origin !== false) addVary(reply, 'Origin');
      if (origin === false) return false;
      const asked = request.header('origin');
      const allowed =
        typeof origin === 'string' ? origin : allows(asked, origin) ? asked : undefined;
      if (allowed) reply.header('access-control-allow-origin', allowed);
      if (options.credentials) reply.header('access-control-allow-credentials', 'true');
      if (exposed !== undefined && exposed !== null) {
        reply.header('access-control-expose-headers', list(exposed));
      }
      if (request.method !== 'OPTIONS' || !preflight) return false;
      reply.header('access-control-allow-methods', allowMethods);
      if (allowedHeaders === undefined || allowedHeaders === null) {
        addVary(reply, 'Access-Control-Request-Headers');
        const askedHeaders = request.header('access-control-request-headers');
        if (askedHeaders !== undefined) reply.header('access-control-allow-headers', askedHeaders);
      } else {
        reply.header('access-control-allow-headers', list(allowedHeaders));
      }
      if (options.maxAge !== undefined && options.maxAge !== null) {
        reply.header('access-control-max-age', String(options.maxAge));
      }
      if (cacheControl !== undefined) reply.header('cache-control', cacheControl);
      if (ownOptions) return false;
      reply.code(successStatus).header('content-length', '0').send();
      return true;
    },
  };
}
