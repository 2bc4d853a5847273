/**
 * The engine side of an App: Fastify with the answer path, the plugins the options ask for and
 * the static mounts, made when the App is created and mounted from its route table at start.
 * @module
 */
import type { FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { appFeatures } from './app-features.js';
import { type AppOptions, extraOptions } from './app-options.js';
import type { PanelPlan } from './builtin-routes.js';
import type { ResolvedConfig } from './config/index.js';
import { noopTracer } from './contracts.js';
import { PanelFeed, resolveDevPanel } from './devpanel/index.js';
import { type AnswerPath, answerPathFor } from './engine/answer.js';
import { BunEngine } from './engine/bun/index.js';
import type { AppEngineCore, EngineInfo, EngineMountPlan } from './engine/contract.js';
import { createEngine, type EnginePlugin, mountEngine } from './engine/engine.js';
import { fastifyServer } from './engine/fastify-server.js';
import { type SecurityHeaders, securityHeadersFor } from './engine/security-headers.js';
import type { EngineServer } from './lifecycle/engine-server.js';
import type { Logger } from './logger/index.js';
import type { AppRuntime, RequestObserver } from './routing/runtime.js';
import { checkTimeout } from './routing/timeout.js';
import type { StaticMount, StaticOptions } from './static/index.js';

/** The runtime of a new App: no integrations yet, the lifecycle's signals, the request log's exclusions. */
export function newRuntime(
  logger: Logger,
  signals: { readonly shutdownBegun: AbortSignal; readonly shutdownDeadline: AbortSignal },
  requestLogExclude: ReadonlySet<string> | undefined,
  observers: readonly RequestObserver[],
): AppRuntime {
  const { shutdownBegun, shutdownDeadline } = signals;
  const runtime = { logger, translator: undefined, tracer: noopTracer, metrics: undefined };
  return { ...runtime, shutdownBegun, shutdownDeadline, requestLogExclude, observers };
}

/** Fastify under an App, with everything that is fixed once the App is created. */
export class AppEngine implements AppEngineCore {
  /** The Fastify instance. */
  readonly fastify: FastifyInstance;
  /** What every request of the app reads; the App sets its integrations on it. */
  readonly runtime: AppRuntime;
  /** The answer path; `answers.errors` holds the error `contentType` and `schema` for the docs. */
  readonly answerPath: AnswerPath;
  /** The security headers of answers and of HTML pages. */
  readonly security: SecurityHeaders;
  /** The listening side, for the lifecycle. */
  readonly server: EngineServer;
  /** `{ name: 'fastify', fastify }`. */
  readonly info: EngineInfo;
  readonly #cors: FastifyCorsOptions | false;
  readonly #timeoutMs: number | undefined;
  readonly #plugins: EnginePlugin[];
  readonly #static: StaticMount[] = [];

  /** Checks the engine-level options and creates Fastify. @throws on a bad option */
  constructor(options: AppOptions, config: ResolvedConfig, runtime: AppRuntime) {
    this.runtime = runtime;
    this.#cors = options.cors ?? { origin: '*' };
    this.security = securityHeadersFor(options.helmet);
    checkTimeout(options.timeoutMs, 'new App()');
    this.#timeoutMs = options.timeoutMs;
    this.#plugins = appFeatures().enginePlugins(options, config);
    this.answerPath = answerPathFor(options, runtime, this.security);
    this.fastify = createEngine(config, {
      answerPath: this.answerPath,
      trustProxy: options.trustProxy,
    });
    this.server = fastifyServer(this.fastify);
    this.info = { name: 'fastify', fastify: this.fastify };
  }

  /** Serves one request with no socket. */
  inject(request: InjectOptions | string): Promise<LightMyRequestResponse> {
    return this.fastify.inject(request);
  }

  /** Serves `dir` under `prefix`; one directory per prefix. */
  addStatic(prefix: string, dir: string, options: StaticOptions | undefined): void {
    const mount = appFeatures().staticMount(prefix, dir, options);
    if (this.#static.some((m) => m.prefix === mount.prefix)) {
      throw new Error(`app.static(): the prefix ${mount.prefix} already serves a directory`);
    }
    this.#static.push(mount);
  }

  /** Installs the pipeline and mounts the routes of the table. */
  mount(plan: EngineMountPlan): Promise<void> {
    const statics = appFeatures().staticPlugin(this.#static);
    return mountEngine(this.fastify, {
      ...plan,
      runtime: this.runtime,
      cors: this.#cors,
      answerPath: this.answerPath,
      security: this.security,
      timeoutMs: this.#timeoutMs,
      plugins: statics ? [...this.#plugins, statics] : this.#plugins,
    });
  }
}

/** The engine the options ask for: Fastify unless `engine: 'bun'`. @throws on a bad or refused option */
export function engineFor(
  options: AppOptions,
  config: ResolvedConfig,
  runtime: AppRuntime,
): AppEngineCore {
  const engine = options.engine;
  if (engine === 'bun') {
    return new BunEngine(options, config, runtime, appFeatures().cookieJar(options, config));
  }
  if (engine !== undefined && engine !== 'fastify') {
    throw new TypeError(`engine must be 'fastify' or 'bun', got ${String(engine)}`);
  }
  return new AppEngine(options, config, runtime);
}

/** The dev panel the options ask for, with its feed. */
export function panelPlanOf(options: AppOptions, config: ResolvedConfig): PanelPlan | undefined {
  const settings = resolveDevPanel(options.devPanel, config.env);
  if (!settings) return undefined;
  const feed = new PanelFeed(settings.maxRequests, settings.maxLogLines);
  return { feed, settings, extra: extraOptions(options, config) };
}

/** The Fastify instance of the engine. @throws on the Bun engine, which has none */
export function fastifyOf(info: EngineInfo): FastifyInstance {
  if (info.name === 'fastify') return info.fastify;
  throw new Error(
    "app.fastify: this app runs on the Bun engine (engine: 'bun'), which has no Fastify instance; read app.engine",
  );
}
