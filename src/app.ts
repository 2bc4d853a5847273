import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { engineFor, fastifyOf, newRuntime, panelPlanOf } from './app-engine.js';
import { type AppOptions, excludedPaths } from './app-options.js';
import { addBuiltinRoutes, type PanelPlan } from './builtin-routes.js';
import { type ResolvedConfig, resolveConfig } from './config/index.js';
import {
  assertContract,
  type HealthChecker,
  type MetricsCollector,
  type Scheduler,
  type ShutdownHook,
  type Tracer,
  type Translator,
} from './contracts.js';
import { OpenApiDocuments } from './docs/documents.js';
import type { OpenApiDocument } from './docs/openapi.js';
import { type AppEngineCore, docsOptionsOf, type EngineInfo } from './engine/contract.js';
import { HealthRegistry } from './health/index.js';
import { Lifecycle } from './lifecycle/index.js';
import { type Logger, newLogger } from './logger/index.js';
import {
  assertMiddleware,
  Group,
  type GroupOptions,
  originOf,
  type Registrable,
  registerModule,
  routesOf,
  type ScopeHost,
} from './routing/group.js';
import { type RouteEntry, RouteTable, type Scope } from './routing/table.js';
import type { Controller, Middleware, RouteDef } from './routing/types.js';
import type { StaticOptions } from './static/index.js';

/**
 * A unit of a service that registers (synchronously) its own controllers, health checkers and
 * hooks. Used on a group, its routes get the group's prefix and middleware.
 */
export type Module = Registrable<App>;

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
  readonly #engine: AppEngineCore;
  readonly #table = new RouteTable();
  readonly #health = new HealthRegistry();
  readonly #appMiddleware: Middleware[] = [];
  readonly #startHooks: Array<() => Promise<void> | void> = [];
  readonly #root: Scope = { prefix: '', middleware: [], parent: undefined };
  readonly #panel: PanelPlan | undefined;
  readonly #lifecycle: Lifecycle;
  #scope: Scope = this.#root;
  #built: Promise<void> | undefined;
  readonly #documents: OpenApiDocuments;

  /** Creates the app: applies config defaults, creates the logger and the engine. Throws on bad config. */
  constructor(options: AppOptions) {
    this.#config = resolveConfig(options);
    const logger = options.logger ?? newLogger(this.#config.isProduction);
    this.#panel = panelPlanOf(options, this.#config);
    const feed = this.#panel?.feed;
    this.#logger = feed ? logger.tee(feed.tap) : logger;
    this.#lifecycle = new Lifecycle({
      config: this.#config,
      logger: this.#logger,
      engine: () => this.#engine.server,
      ready: () => this.ready(),
    });
    const runtime = newRuntime(
      this.#logger,
      this.#lifecycle,
      excludedPaths(options.requestLog?.exclude),
      feed ? [feed.observer] : [],
    );
    this.#engine = engineFor(options, this.#config, runtime);
    this.#documents = new OpenApiDocuments({
      config: this.#config,
      routes: () => this.#table.entries,
      options: () => docsOptionsOf(this.#engine.answerPath, this.#appMiddleware),
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

  /** The Fastify instance underneath, for plugins Keelson does not wrap. @throws on the Bun engine */
  get fastify(): FastifyInstance {
    return fastifyOf(this.#engine.info);
  }

  /** The engine underneath: `{ name: 'fastify', fastify }` or `{ name: 'bun', server }`. */
  get engine(): EngineInfo {
    return this.#engine.info;
  }

  /** The metrics collector set by `setMetricsCollector`, if any. */
  get metrics(): MetricsCollector | undefined {
    return this.#engine.runtime.metrics;
  }

  /** The tracer; a no-op tracer until `setTracer`. Never null. */
  get tracer(): Tracer {
    return this.#engine.runtime.tracer;
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

  /** A route group: `prefix`, then options (`{ version, deprecated }`), then middleware, each optional. */
  group(prefix: string, first?: GroupOptions | Middleware, ...rest: Middleware[]): Group<App> {
    return Group.open<App>(this.#host, this.#scope, prefix, first, rest);
  }

  /**
   * Serves the files of `dir` under `prefix` (GET and HEAD, ETag, ranges); any path outside
   * `dir` answers 404. Left out of the OpenAPI document.
   * @example app.static('/assets', './public', { maxAge: 86_400_000, immutable: true })
   */
  static(prefix: string, dir: string, options?: StaticOptions): this {
    this.#assertNotStarted('app.static()');
    this.#engine.addStatic(prefix, dir, options);
    return this;
  }

  /** Adds a health checker to `GET /health`. */
  registerHealthChecker(checker: HealthChecker): this {
    this.#health.add(checker);
    return this;
  }

  /** Adds a shutdown hook; hooks run in registration order, `{ last: true }` ones after all. */
  onShutdown(hook: ShutdownHook, options?: { last?: boolean }): this {
    this.#lifecycle.addHook(hook, options?.last === true);
    return this;
  }

  /** Adds a hook run once when the app starts (`ready`, `inject` or `listen`), before the port opens. */
  onStart(hook: () => Promise<void> | void): this {
    this.#assertNotStarted('app.onStart()');
    this.#startHooks.push(hook);
    return this;
  }

  /** Sets the metrics collector, told of every finished request. */
  setMetricsCollector(collector: MetricsCollector): this {
    assertContract(collector, ['recordRequest'], 'a metrics collector', 'recordRequest(metric)');
    this.#engine.runtime.metrics = collector;
    return this;
  }

  /** Sets the tracer; must be called before the app starts. */
  setTracer(tracer: Tracer): this {
    assertContract(tracer, ['start'], 'a tracer', 'start(name)');
    this.#assertNotStarted('setTracer');
    this.#engine.runtime.tracer = tracer;
    return this;
  }

  /** Sets the translator behind `c.t()` and `c.lang`. */
  setTranslator(translator: Translator): this {
    assertContract(
      translator,
      ['t', 'locales'],
      'a translator',
      't(locale, key, ...args) and locales()',
    );
    this.#engine.runtime.translator = translator;
    return this;
  }

  /** Registers the scheduler: `listen()` starts it, and its `stop` is added as a shutdown hook now. */
  registerScheduler(scheduler: Scheduler): this {
    this.#lifecycle.setScheduler(scheduler);
    return this;
  }

  /** Builds the engine from the route table without listening; `inject` and `listen` call it. */
  ready(): Promise<void> {
    this.#built ??= this.#build();
    return this.#built;
  }

  /** Serves one request with no socket, for tests. */
  async inject(request: InjectOptions | string): Promise<LightMyRequestResponse> {
    await this.ready();
    return this.#engine.inject(request);
  }

  /**
   * The OpenAPI 3.1 document of the app, or of one API version (`app.group(p, { version })`):
   * built once, at startup when the docs are served, at the first call otherwise (production).
   */
  async openapi(version?: string): Promise<OpenApiDocument> {
    await this.ready();
    return this.#documents.get(version);
  }

  /** Serves until SIGINT or SIGTERM, shuts down gracefully (see Lifecycle) and exits 0 or 1. */
  listen(): Promise<void> {
    return this.#lifecycle.listen();
  }

  /** Runs the graceful shutdown without exiting; resolves true when it all went well. */
  close(): Promise<boolean> {
    return this.#lifecycle.close();
  }

  readonly #host: ScopeHost<App> = {
    addIn: (scope, routes, origin) => this.#addIn(scope, routes, origin),
    useModuleIn: (scope, module) => this.#useModuleIn(scope, module),
  };

  #addIn(scope: Scope, routes: readonly RouteDef[], origin: string, builtin = false): void {
    this.#assertNotStarted('registering routes');
    for (const r of routes) this.#table.add(r, scope, origin, builtin);
  }

  #useModuleIn(scope: Scope, module: Module): void {
    registerModule(this, module, scope, (inner) => {
      const outer = this.#scope;
      this.#scope = inner;
      return outer;
    });
  }

  #assertNotStarted(what: string): void {
    if (this.#built)
      throw new Error(`${what} must happen before the app starts (ready, inject or listen)`);
  }

  async #build(): Promise<void> {
    for (const hook of this.#startHooks) await hook();
    addBuiltinRoutes(this.#table, this.#root, {
      config: this.#config,
      health: this.#health,
      lifecycle: this.#lifecycle,
      pageHeaders: this.#engine.security.page,
      documents: this.#documents,
      panel: this.#panel,
      appMiddleware: this.#appMiddleware,
    });
    await this.#engine.mount({
      isDraining: () => this.#lifecycle.shutdownBegun.aborted,
      routes: this.#table.entries,
      appMiddleware: this.#appMiddleware,
    });
  }
}

export type { AppOptions } from './app-options.js';
