import type { FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { HelmetOptions } from 'helmet';
import { type KConfig, type ResolvedConfig, resolveConfig } from './config/index.js';
import {
  type HealthChecker,
  type MetricsCollector,
  noopTracer,
  type Scheduler,
  type ShutdownHook,
  type Tracer,
  type Translator,
} from './contracts.js';
import {
  type DevPanelOptions,
  devPanelRoutes,
  PanelFeed,
  type ResolvedDevPanel,
  resolveDevPanel,
} from './devpanel/index.js';
import { type BuildOpenApiOptions, buildOpenApi, type OpenApiDocument } from './docs/openapi.js';
import { docsRoutes } from './docs/routes.js';
import type { ErrorsOptions } from './errors/error-body.js';
import { HealthRegistry, healthRoutes } from './health/index.js';
import { type AnswerPath, answerPathFor } from './http/answer.js';
import { type CompressOptions, compressPlugin } from './http/compress/index.js';
import { type CookiesOptions, cookiesPlugin } from './http/cookies/index.js';
import { createEngine, type EnginePlugin, mountEngine, type TrustProxy } from './http/engine.js';
import type { RequestObserver } from './http/observers.js';
import type { RequestIdOptions } from './http/request-id.js';
import { type SecurityHeaders, securityHeadersFor } from './http/security-headers.js';
import {
  type StaticMount,
  type StaticOptions,
  staticMount,
  staticPlugin,
} from './http/static/index.js';
import { Lifecycle } from './lifecycle/index.js';
import { type Logger, newLogger } from './logger/index.js';
import { assertMiddleware, Group, originOf, routesOf, type ScopeHost } from './routing/group.js';
import { type RouteEntry, RouteTable, type Scope } from './routing/table.js';
import { checkTimeout } from './routing/timeout.js';
import type { Controller, Middleware, RouteDef } from './routing/types.js';

/** Everything `new App()` takes: the config of SPEC.md plus the engine-level options. */
export interface AppOptions extends KConfig {
  /** The logger the app writes to. @default newLogger(env === 'production') */
  logger?: Logger;
  /** CORS options for @fastify/cors, or false to leave CORS out. @default { origin: '*' } */
  cors?: FastifyCorsOptions | false;
  /**
   * Security headers. By default: OWASP's API set (a `default-src 'none'; frame-ancestors 'none'`
   * CSP, HSTS, nosniff, `X-Frame-Options: DENY`) on answers, and helmet's set on the docs page.
   * helmet options: helmet's set with those options on every answer. `false`: none.
   */
  helmet?: HelmetOptions | false;
  /** The request log. `exclude`: paths (no query) never logged, e.g. probes and scrapes; still counted by metrics. @default {} */
  requestLog?: { exclude?: readonly string[] };
  /**
   * Shapes every error answer, whoever produced it (handler, middleware, 404, 405, 413, 415, the
   * parser): `body(problem, c)` returns the body, `contentType` its media type, `schema` what the
   * document shows. @default problem+json (RFC 9457)
   */
  errors?: ErrorsOptions;
  /**
   * Request ids: a valid incoming `x-request-id` is kept, else a UUID is made; every answer
   * carries it, as do JSON request-log entries and problem bodies. `false` turns them off.
   * @default { header: 'x-request-id' }
   */
  requestId?: RequestIdOptions | false;
  /**
   * Which proxies to trust for `X-Forwarded-For/-Proto/-Host` (Fastify's `trustProxy`): `true`,
   * an address, a CIDR or a list of them. @default undefined (none)
   */
  trustProxy?: TrustProxy;
  /**
   * The default `timeoutMs` of every route (a route's own option wins): when it passes,
   * `c.signal` aborts and the client gets 504 `TIMEOUT`. @default none
   */
  timeoutMs?: number;
  /**
   * The dev panel at `/_keelson`: live requests and logs, routes, health, jobs, masked config.
   * Never served in production unless `{ forceInProduction: true }`. @default env === 'development'
   */
  devPanel?: boolean | DevPanelOptions;
  /** Cookie settings: `secret` (one, or several to rotate) signs `{ signed: true }` cookies. */
  cookies?: CookiesOptions;
  /** Response compression (br, gzip, deflate by `Accept-Encoding`). @default false */
  compress?: boolean | CompressOptions;
}

/**
 * A unit of a service that registers its own controllers, health checkers and hooks.
 * `register` must register synchronously. Used on a group, its routes get the group's
 * prefix and middleware; its app-wide calls still reach the app.
 */
export interface Module {
  /** Registers the module's parts on the app. */
  register(app: App): void;
}

/**
 * A Keelson service: the engine, the route table, health, docs, logging and the lifecycle.
 * @example
 * const app = new App({ serviceName: 'users-api', port: 8080 });
 * app.registerController(new UsersController());
 * await app.listen();
 */
export class App {
  readonly #config: ResolvedConfig;
  readonly #logger: Logger;
  readonly #fastify: FastifyInstance;
  readonly #cors: FastifyCorsOptions | false;
  readonly #security: SecurityHeaders;
  /** The answer path; `#answers.errors` holds the error `contentType` and `schema` for the docs. */
  readonly #answers: AnswerPath;
  readonly #timeoutMs: number | undefined;
  readonly #table = new RouteTable();
  readonly #health = new HealthRegistry();
  readonly #appMiddleware: Middleware[] = [];
  readonly #root: Scope = { prefix: '', middleware: [], parent: undefined };
  readonly #runtime: {
    logger: Logger;
    translator: Translator | undefined;
    tracer: Tracer;
    metrics: MetricsCollector | undefined;
    shutdownBegun: AbortSignal;
    shutdownDeadline: AbortSignal;
    requestLogExclude: ReadonlySet<string> | undefined;
    observers: RequestObserver[];
  };
  readonly #panel:
    | { feed: PanelFeed; settings: ResolvedDevPanel; extra: Record<string, unknown> }
    | undefined;
  readonly #lifecycle: Lifecycle;
  readonly #cookies: EnginePlugin;
  readonly #compress: EnginePlugin | undefined;
  readonly #static: StaticMount[] = [];
  #scope: Scope = this.#root;
  #built: Promise<void> | undefined;
  #openapi: OpenApiDocument | undefined;

  /** Creates the app: applies config defaults, creates the logger and the engine. Throws on bad config. */
  constructor(options: AppOptions) {
    this.#config = resolveConfig(options);
    const logger = options.logger ?? newLogger(this.#config.isProduction);
    const panel = resolveDevPanel(options.devPanel, this.#config.env);
    const feed = panel && new PanelFeed(panel.maxRequests, panel.maxLogLines);
    this.#panel = feed && panel && { feed, settings: panel, extra: extraOptions(options) };
    this.#logger = feed ? logger.tee(feed.tap) : logger;
    this.#cors = options.cors ?? { origin: '*' };
    this.#security = securityHeadersFor(options.helmet);
    checkTimeout(options.timeoutMs, 'new App()');
    this.#timeoutMs = options.timeoutMs;
    this.#cookies = cookiesPlugin(options.cookies, this.#config.isProduction);
    this.#compress = compressPlugin(options.compress);
    this.#lifecycle = new Lifecycle({
      config: this.#config,
      logger: this.#logger,
      engine: () => this.#fastify,
      ready: () => this.ready(),
    });
    this.#runtime = {
      logger: this.#logger,
      translator: undefined,
      tracer: noopTracer,
      metrics: undefined,
      shutdownBegun: this.#lifecycle.shutdownBegun,
      shutdownDeadline: this.#lifecycle.shutdownDeadline,
      requestLogExclude: excludedPaths(options.requestLog?.exclude),
      observers: feed ? [feed.observer] : [],
    };
    this.#answers = answerPathFor(options, this.#runtime, this.#security);
    this.#fastify = createEngine(this.#config, {
      answers: this.#answers,
      trustProxy: options.trustProxy,
    });
  }

  /** The resolved configuration, defaults applied. */
  get config(): ResolvedConfig {
    return this.#config;
  }

  /** The logger the app writes to. */
  get logger(): Logger {
    return this.#logger;
  }

  /** The Fastify instance underneath, for plugins Keelson does not wrap. */
  get fastify(): FastifyInstance {
    return this.#fastify;
  }

  /** The metrics collector set by `setMetricsCollector`, if any. */
  get metrics(): MetricsCollector | undefined {
    return this.#runtime.metrics;
  }

  /** The tracer; a no-op tracer until `setTracer`. Never null. */
  get tracer(): Tracer {
    return this.#runtime.tracer;
  }

  /** The URL the server is bound to, once `listen()` has bound it. */
  get address(): string | undefined {
    return this.#lifecycle.address;
  }

  /** Every route of the app, built-in ones included, in registration order. */
  get routes(): readonly RouteEntry[] {
    return this.#table.entries;
  }

  /** App-wide middleware, outermost first: every route but Keelson's own runs inside it. */
  get middleware(): readonly Middleware[] {
    return this.#appMiddleware;
  }

  // ── registration ──────────────────────────────────────────────────────────

  /** Registers a controller's routes (under the current group, inside a module used on one). */
  registerController(controller: Controller): this {
    this.#addIn(this.#scope, routesOf(controller), originOf(controller));
    return this;
  }

  /** Registers routes directly: `app.addRoutes(get('/ping', () => 'pong'))`. */
  addRoutes(...routes: RouteDef[]): this {
    this.#addIn(this.#scope, routes, 'app');
    return this;
  }

  /** Registers a module, or adds app-wide middleware when given a function. */
  use(item: Module | Middleware): this {
    if (typeof item === 'function') {
      assertMiddleware(item);
      if (this.#scope === this.#root) this.#appMiddleware.push(item);
      else this.#scope.middleware.push(item);
    } else {
      this.#useModuleIn(this.#scope, item);
    }
    return this;
  }

  /** A route group: routes registered on it get `prefix` and run inside `middleware`. */
  group(prefix: string, ...middleware: Middleware[]): Group<App> {
    return new Group<App>(this.#host, this.#scope, prefix, middleware);
  }

  /**
   * Serves the files of `dir` under `prefix` (GET and HEAD, ETag, ranges); any path outside
   * `dir` answers 404. Left out of the OpenAPI document.
   * @example app.static('/assets', './public', { maxAge: 86_400_000, immutable: true })
   */
  static(prefix: string, dir: string, options?: StaticOptions): this {
    this.#assertNotStarted('app.static()');
    const mount = staticMount(prefix, dir, options);
    if (this.#static.some((m) => m.prefix === mount.prefix)) {
      throw new Error(`app.static(): the prefix ${mount.prefix} already serves a directory`);
    }
    this.#static.push(mount);
    return this;
  }

  /** Adds a health checker to `GET /health`. */
  registerHealthChecker(checker: HealthChecker): this {
    this.#health.add(checker);
    return this;
  }

  /** Adds a shutdown hook; hooks run one after another in registration order. */
  onShutdown(hook: ShutdownHook): this {
    this.#lifecycle.addHook(hook);
    return this;
  }

  /** Sets the metrics collector, told of every finished request. */
  setMetricsCollector(collector: MetricsCollector): this {
    if (!collector || typeof collector.recordRequest !== 'function') {
      throw new TypeError('a metrics collector must have a recordRequest(metric) method');
    }
    this.#runtime.metrics = collector;
    return this;
  }

  /** Sets the tracer; must be called before the app starts. */
  setTracer(tracer: Tracer): this {
    if (!tracer || typeof tracer.start !== 'function')
      throw new TypeError('a tracer must have a start(name) method');
    this.#assertNotStarted('setTracer');
    this.#runtime.tracer = tracer;
    return this;
  }

  /** Sets the translator behind `c.t()` and `c.lang`. */
  setTranslator(translator: Translator): this {
    if (
      !translator ||
      typeof translator.t !== 'function' ||
      typeof translator.locales !== 'function'
    ) {
      throw new TypeError('a translator must have t(locale, key, ...args) and locales() methods');
    }
    this.#runtime.translator = translator;
    return this;
  }

  /** Registers the scheduler: `listen()` starts it, and its `stop` is added as a shutdown hook now. */
  registerScheduler(scheduler: Scheduler): this {
    this.#lifecycle.setScheduler(scheduler);
    return this;
  }

  // ── running ───────────────────────────────────────────────────────────────

  /** Builds the engine from the route table without listening; `inject` and `listen` call it. */
  ready(): Promise<void> {
    this.#built ??= this.#build();
    return this.#built;
  }

  /** Serves one request with no socket, for tests. */
  async inject(request: InjectOptions | string): Promise<LightMyRequestResponse> {
    await this.ready();
    return this.#fastify.inject(request);
  }

  /**
   * The OpenAPI 3.1 document of the app, built once from the route table: at startup when the
   * docs are served, at the first call otherwise (production).
   */
  async openapi(): Promise<OpenApiDocument> {
    await this.ready();
    this.#openapi ??= buildOpenApi(this.#config, this.#table.entries, this.#docsOptions());
    return this.#openapi;
  }

  /** Serves until SIGINT or SIGTERM, shuts down gracefully (see Lifecycle) and exits 0 or 1. */
  listen(): Promise<void> {
    return this.#lifecycle.listen();
  }

  /** Runs the graceful shutdown without exiting; resolves true when it all went well. */
  close(): Promise<boolean> {
    return this.#lifecycle.close();
  }

  // ── internals ─────────────────────────────────────────────────────────────

  readonly #host: ScopeHost<App> = {
    addIn: (scope, routes, origin) => this.#addIn(scope, routes, origin),
    useModuleIn: (scope, module) => this.#useModuleIn(scope, module),
  };

  #addIn(scope: Scope, routes: readonly RouteDef[], origin: string, builtin = false): void {
    this.#assertNotStarted('registering routes');
    for (const r of routes) this.#table.add(r, scope, origin, builtin);
  }

  #useModuleIn(scope: Scope, module: Module): void {
    if (!module || typeof module.register !== 'function') {
      throw new TypeError('a module must have a register(app) method');
    }
    const outer = this.#scope;
    this.#scope = scope;
    try {
      const result: unknown = module.register(this);
      if (result instanceof Promise) {
        throw new TypeError(
          `${originOf(module)}.register(app) must register synchronously, it returned a Promise`,
        );
      }
    } finally {
      this.#scope = outer;
    }
  }

  #assertNotStarted(what: string): void {
    if (this.#built)
      throw new Error(`${what} must happen before the app starts (ready, inject or listen)`);
  }

  /** What the document needs besides the table: app middleware and the shape of error answers. */
  #docsOptions(): BuildOpenApiOptions {
    const { body, contentType, schema } = this.#answers.errors;
    const options: BuildOpenApiOptions = { middleware: this.#appMiddleware };
    if (body !== undefined || schema !== undefined) {
      options.errorResponse = schema ? { contentType, schema } : { contentType };
    }
    return options;
  }

  async #build(): Promise<void> {
    const config = this.#config;
    if (!config.disableHealth) {
      const routes = healthRoutes(config, this.#health, this.#lifecycle.shutdownBegun);
      for (const r of routes) this.#table.add(r, this.#root, 'keelson', true);
    }
    if (config.docs.enabled) {
      const routes = docsRoutes({
        docs: config.docs,
        document: () => this.#openapi!,
        headers: this.#security.page,
      });
      for (const r of routes) this.#table.add(r, this.#root, 'keelson', true);
      // Built before mounting, so a schema it cannot express fails naming its route.
      this.#openapi = buildOpenApi(config, this.#table.entries, this.#docsOptions());
    }
    if (this.#panel) {
      const routes = devPanelRoutes({
        ...this.#panel,
        config,
        extraConfig: this.#panel.extra,
        routes: () => this.#table.entries,
        appMiddleware: this.#appMiddleware,
        scheduler: () => this.#lifecycle.scheduler,
        health: () => this.#health.run(config.health),
        pageHeaders: this.#security.page,
        shutdownBegun: this.#lifecycle.shutdownBegun,
      });
      for (const r of routes) this.#table.add(r, this.#root, 'keelson', true);
    }
    await mountEngine(this.#fastify, {
      cors: this.#cors,
      runtime: this.#runtime,
      answers: this.#answers,
      security: this.#security,
      isDraining: () => this.#lifecycle.shutdownBegun.aborted,
      routes: this.#table.entries,
      appMiddleware: this.#appMiddleware,
      timeoutMs: this.#timeoutMs,
      plugins: [this.#cookies, this.#compress, staticPlugin(this.#static)].filter(
        (p): p is EnginePlugin => p !== undefined,
      ),
    });
  }
}

const ENGINE_OPTIONS = new Set([
  'logger',
  'cors',
  'helmet',
  'devPanel',
  'timeoutMs',
  'errors',
  'requestId',
  'trustProxy',
  'cookies',
  'compress',
  'requestLog',
]);

// A service's own settings passed alongside KConfig, for the dev panel's config view.
function extraOptions(options: AppOptions): Record<string, unknown> {
  const known = new Set(Object.keys(resolveConfig(options)));
  return Object.fromEntries(
    Object.entries(options).filter(([k]) => !known.has(k) && !ENGINE_OPTIONS.has(k)),
  );
}

function excludedPaths(paths: readonly string[] | undefined): ReadonlySet<string> | undefined {
  if (paths === undefined || paths.length === 0) return undefined;
  for (const p of paths) {
    if (typeof p !== 'string' || !p.startsWith('/')) {
      throw new TypeError(
        `requestLog.exclude: each path should start with '/', instead got ${JSON.stringify(p)}`,
      );
    }
  }
  return new Set(paths);
}
