/**
 * The types of KConfig and of the config resolved from it.
 * @module
 */
import type { DocsSecurityScheme } from './security.js';

/** The environment a service runs in. In `production` the docs endpoints are not registered. */
export type Env = 'development' | 'staging' | 'production';

/** Where the env came from: `config.env`, the `NODE_ENV` variable, or the default. */
export type EnvSource = 'config' | 'NODE_ENV' | 'default';

/** Who to contact about the API, shown in the docs. */
export interface DocsContact {
  /** Person or team. */
  name?: string;
  /** An absolute http(s) URL. */
  url?: string;
  /** An email address. */
  email?: string;
}

/** The license of the API, shown in the docs. */
export interface DocsLicense {
  /** Required, e.g. `MIT`. */
  name: string;
  /** An absolute http(s) URL. */
  url?: string;
}

/** A tag that groups operations in the docs. */
export interface DocsTag {
  /** Unique among the tags, e.g. `users`. */
  name: string;
  /** Shown under the tag's heading. */
  description?: string;
}

/** The API documentation (`GET <path>` and `GET <path>/openapi.json`). */
export interface DocsConfig {
  /** Where the docs are served, of the form `/x` or `/x/y`. @default '/docs' */
  path?: string;
  /** @default serviceName */
  title?: string;
  /** The API version. @default '1.0.0' */
  version?: string;
  /** Shown under the title. */
  description?: string;
  /** Who to contact about the API. */
  contact?: DocsContact;
  /** The license of the API. */
  license?: DocsLicense;
  /**
   * Servers the API is reachable at: `'<url> - <description>'` or a bare `'<url>'`, where the URL
   * is absolute http(s) or a path starting with `/`.
   * @example ['https://api.example.com - Production', '/']
   */
  servers?: string[];
  /** Tags that group operations. */
  tags?: DocsTag[];
  /**
   * Security schemes, by name; a route requires one with `security: [{ <name>: [] }]`.
   * @example { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } }
   */
  securitySchemes?: Record<string, DocsSecurityScheme>;
  /**
   * The security every operation requires unless its route or middleware says otherwise (the
   * document's root `security`); it documents, the middleware enforces.
   * @example [{ bearerAuth: [] }]
   */
  security?: Record<string, string[]>[];
  /**
   * Document the HEAD operation the engine answers for every GET (without a body). `false`
   * keeps them out of the document; the engine still answers HEAD. @default true
   */
  head?: boolean;
  /**
   * Document Keelson's own routes (`/health`, `/health/ready`, `/health/live`). `false` keeps
   * them out of the document; they are still served. @default true
   */
  builtins?: boolean;
}

/** The health endpoint (`GET /health`). */
export interface HealthConfig {
  /**
   * How long a health check may run before it counts as failed; under Kubernetes' default
   * 1 s probe timeout. Raise it together with the probe's `timeoutSeconds`. @default 800
   */
  timeoutMs?: number;
  /**
   * How long a finished run of the checkers answers later probes, in ms; 0 keeps only the
   * sharing of one run among concurrent probes. @default 0
   */
  cacheMs?: number;
}

/**
 * The configuration of an App. Keys other than these are left alone for the parts of the App
 * that own them.
 * @example new App({ serviceName: 'users-api', port: 8080, env: 'production' })
 */
export interface KConfig {
  /** The name of the service, reported by `/health`. Required, non-empty. */
  serviceName: string;
  /** The TCP port to listen on; `0` picks any free port. @default 3000 */
  port?: number;
  /**
   * The environment. When absent, `NODE_ENV` decides if it is one of the three; else
   * `development`. @default process.env.NODE_ENV, else 'development'
   */
  env?: Env;
  /** The address to listen on. @default '0.0.0.0' */
  host?: string;
  /** The service's version, reported by `/health`. @default docs.version */
  version?: string;
  /** Leave `GET /health` out, e.g. when health is served elsewhere. @default false */
  disableHealth?: boolean;
  /** The API documentation. */
  docs?: DocsConfig;
  /** The health endpoint. */
  health?: HealthConfig;
  /** The largest request body accepted, in bytes. @default 1048576 (1 MiB) */
  bodyLimit?: number;
  /**
   * How long the shutdown may take once the listener closes, in ms: draining (at most half of
   * it), the hooks, and the final log flush (the last tenth, at most 1 s). @default 10000
   */
  shutdownTimeoutMs?: number;
  /**
   * After SIGTERM, how long the service keeps serving (readiness already answering 503) before
   * it stops accepting connections, in ms: the time a load balancer takes to stop sending to
   * it. Kubernetes: a few seconds. @default 0
   */
  drainDelayMs?: number;
  /**
   * A client that takes no byte of a response for this long is dropped and the memory its
   * response held is released, in ms. @default 30000
   */
  sendTimeoutMs?: number;
  /**
   * How long an idle keep-alive connection is kept open, in ms. Keep it longer than the idle
   * timeout of the load balancer in front (60 s on most). @default 72000
   */
  keepAliveTimeoutMs?: number;
  /** The longest a client may take to send a whole request, in ms. @default 30000 */
  requestTimeoutMs?: number;
  /** The longest a client may take to send the request headers, in ms; at most requestTimeoutMs. @default 10000 */
  headersTimeoutMs?: number;
}

/** A docs server, parsed from `'<url> - <description>'` or a bare `'<url>'`. */
export interface ResolvedDocsServer {
  /** An absolute http(s) URL or a path starting with `/`. */
  url: string;
  /** What follows ` - `, when given. */
  description?: string;
}

/** DocsConfig with its defaults applied. */
export interface ResolvedDocsConfig {
  /** Where the docs are served. */
  path: string;
  /** The title of the docs. */
  title: string;
  /** The API version. */
  version: string;
  /** Shown under the title. */
  description?: string;
  /** Who to contact about the API. */
  contact?: DocsContact;
  /** The license of the API. */
  license?: DocsLicense;
  /** Servers the API is reachable at; empty when none were given. */
  servers: ResolvedDocsServer[];
  /** Tags that group operations; empty when none were given. */
  tags: DocsTag[];
  /** Security schemes, by name, when any were given. */
  securitySchemes?: Record<string, DocsSecurityScheme>;
  /** The document's root security requirement, when given. */
  security?: Record<string, string[]>[];
  /** Whether the document has the HEAD operations of GET routes. */
  head: boolean;
  /** Whether the document has Keelson's own routes. */
  builtins: boolean;
  /** Whether the docs endpoints are registered: false in production. */
  enabled: boolean;
}

/** KConfig with every default applied and every value checked. */
export interface ResolvedConfig {
  /** The name of the service. */
  serviceName: string;
  /** The TCP port to listen on. */
  port: number;
  /** The environment the service runs in. */
  env: Env;
  /** Where `env` came from; the startup line says so unless it was given. */
  envFrom: EnvSource;
  /** The address to listen on. */
  host: string;
  /** The service's version. */
  version: string;
  /** Whether `GET /health` is left out. */
  disableHealth: boolean;
  /** The API documentation. */
  docs: ResolvedDocsConfig;
  /** The health endpoint. */
  health: { timeoutMs: number; cacheMs: number };
  /** The largest request body accepted, in bytes. */
  bodyLimit: number;
  /** How long the shutdown may take once the listener closes, in ms. */
  shutdownTimeoutMs: number;
  /** How long the service keeps serving after SIGTERM before it stops accepting, in ms. */
  drainDelayMs: number;
  /** How long a client may take no byte of a response before it is dropped, in ms. */
  sendTimeoutMs: number;
  /** How long an idle keep-alive connection is kept open, in ms. */
  keepAliveTimeoutMs: number;
  /** The longest a client may take to send a whole request, in ms. */
  requestTimeoutMs: number;
  /** The longest a client may take to send the request headers, in ms. */
  headersTimeoutMs: number;
  /** `env === 'production'`. */
  isProduction: boolean;
}
