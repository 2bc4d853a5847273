/**
 * The security schemes of the docs (`docs.securitySchemes`): their types and their checks.
 * @module
 */
import { check, isHttpUrl, isObject, optionalString } from './checks.js';
import { ConfigError } from './config-error.js';

/** `Authorization: Bearer <token>`. */
export interface BearerScheme {
  /** `http`. */
  type: 'http';
  /** `bearer`. */
  scheme: 'bearer';
  /** A hint about the token, e.g. `JWT`. */
  bearerFormat?: string;
  /** Shown in the docs. */
  description?: string;
}

/** `Authorization: Basic <base64 user:password>`. */
export interface BasicScheme {
  /** `http`. */
  type: 'http';
  /** `basic`. */
  scheme: 'basic';
  /** Shown in the docs. */
  description?: string;
}

/** A key sent in a header, the query string or a cookie. */
export interface ApiKeyScheme {
  /** `apiKey`. */
  type: 'apiKey';
  /** Where the key is sent. */
  in: 'header' | 'query' | 'cookie';
  /** The name of the header, query parameter or cookie. */
  name: string;
  /** Shown in the docs. */
  description?: string;
}

/** One OAuth 2 flow: its URLs (absolute http(s) or paths) and scope name → description. */
export interface OAuthFlow {
  /** Required by the `implicit` and `authorizationCode` flows. */
  authorizationUrl?: string;
  /** Required by the `password`, `clientCredentials` and `authorizationCode` flows. */
  tokenUrl?: string;
  /** Where tokens are refreshed. */
  refreshUrl?: string;
  /** The scopes the flow grants: name → description (may be empty). */
  scopes: Record<string, string>;
}

/** The OAuth 2 flows a scheme supports; at least one. */
export interface OAuthFlows {
  /** Needs `authorizationUrl`. */
  implicit?: OAuthFlow;
  /** Needs `tokenUrl`. */
  password?: OAuthFlow;
  /** Needs `tokenUrl`. */
  clientCredentials?: OAuthFlow;
  /** Needs `authorizationUrl` and `tokenUrl`. */
  authorizationCode?: OAuthFlow;
}

/** OAuth 2 with the flows it supports. */
export interface OAuth2Scheme {
  /** `oauth2`. */
  type: 'oauth2';
  /** The flows. */
  flows: OAuthFlows;
  /** Shown in the docs. */
  description?: string;
}

/** A security scheme routes can require by name in their `security` option. */
export type DocsSecurityScheme = BearerScheme | BasicScheme | ApiKeyScheme | OAuth2Scheme;

/** A name usable as an OpenAPI component key. */
const SCHEME_NAME = /^[A-Za-z0-9._-]+$/;

const FLOW_URLS: Readonly<Record<keyof OAuthFlows, readonly ('authorizationUrl' | 'tokenUrl')[]>> =
  {
    implicit: ['authorizationUrl'],
    password: ['tokenUrl'],
    clientCredentials: ['tokenUrl'],
    authorizationCode: ['authorizationUrl', 'tokenUrl'],
  };

function isUrlOrPath(s: unknown): boolean {
  return typeof s === 'string' && (isHttpUrl(s) || (s.startsWith('/') && !s.startsWith('//')));
}

function resolveFlow(value: unknown, field: string, urls: readonly string[]): OAuthFlow {
  check(isObject(value), field, 'an object with scopes', value);
  const f = value as Record<string, unknown>;
  const flow = {} as OAuthFlow;
  for (const key of ['authorizationUrl', 'tokenUrl', 'refreshUrl'] as const) {
    const url = f[key];
    if (url === undefined && !urls.includes(key)) continue;
    check(isUrlOrPath(url), `${field}.${key}`, 'an absolute http(s) URL or a path', url);
    flow[key] = url as string;
  }
  check(isObject(f.scopes), `${field}.scopes`, 'an object of scope name → description', f.scopes);
  flow.scopes = {};
  for (const [scope, text] of Object.entries(f.scopes as Record<string, unknown>)) {
    check(typeof text === 'string', `${field}.scopes.${scope}`, 'a string', text);
    flow.scopes[scope] = text as string;
  }
  return flow;
}

function resolveFlows(value: unknown, field: string): OAuthFlows {
  const names = Object.keys(FLOW_URLS);
  check(isObject(value), field, `an object with one or more of ${names.join(', ')}`, value);
  const given = value as Record<string, unknown>;
  const flows: OAuthFlows = {};
  for (const key of Object.keys(given)) {
    check(names.includes(key), `${field}.${key}`, `one of ${names.join(', ')}`, key);
    const name = key as keyof OAuthFlows;
    flows[name] = resolveFlow(given[name], `${field}.${name}`, FLOW_URLS[name]);
  }
  check(Object.keys(flows).length > 0, field, 'at least one flow', value);
  return flows;
}

function resolveScheme(value: unknown, field: string): DocsSecurityScheme {
  const types =
    '{ type: "http", scheme: "bearer" | "basic" }, { type: "apiKey", in, name } or { type: "oauth2", flows }';
  check(isObject(value), field, types, value);
  const s = value as Record<string, unknown>;
  const description = optionalString(s.description, `${field}.description`);
  const withDescription = <T extends DocsSecurityScheme>(scheme: T): T =>
    description === undefined ? scheme : { ...scheme, description };
  switch (s.type) {
    case 'http': {
      check(
        s.scheme === 'bearer' || s.scheme === 'basic',
        `${field}.scheme`,
        '"bearer" or "basic"',
        s.scheme,
      );
      if (s.scheme === 'basic') return withDescription({ type: 'http', scheme: 'basic' });
      const bearerFormat = optionalString(s.bearerFormat, `${field}.bearerFormat`, true);
      const bearer: BearerScheme = { type: 'http', scheme: 'bearer' };
      if (bearerFormat !== undefined) bearer.bearerFormat = bearerFormat;
      return withDescription(bearer);
    }
    case 'apiKey': {
      const where = s.in;
      check(
        where === 'header' || where === 'query' || where === 'cookie',
        `${field}.in`,
        '"header", "query" or "cookie"',
        where,
      );
      const name = optionalString(s.name, `${field}.name`, true);
      check(name !== undefined, `${field}.name`, 'a non-empty string', s.name);
      return withDescription({
        type: 'apiKey',
        in: where as ApiKeyScheme['in'],
        name: name as string,
      });
    }
    case 'oauth2':
      return withDescription({ type: 'oauth2', flows: resolveFlows(s.flows, `${field}.flows`) });
    default:
      throw new ConfigError(`${field}.type`, '"http", "apiKey" or "oauth2"', s.type);
  }
}

/** Checks `docs.securitySchemes`; throws a ConfigError naming the first bad field. */
export function resolveSecuritySchemes(value: unknown): Record<string, DocsSecurityScheme> {
  check(isObject(value), 'docs.securitySchemes', 'an object of name → scheme', value);
  const out: Record<string, DocsSecurityScheme> = {};
  for (const [name, scheme] of Object.entries(value as Record<string, unknown>)) {
    check(
      SCHEME_NAME.test(name),
      `docs.securitySchemes`,
      'keyed by names of letters, digits, ".", "-" and "_"',
      name,
    );
    out[name] = resolveScheme(scheme, `docs.securitySchemes.${name}`);
  }
  return out;
}
