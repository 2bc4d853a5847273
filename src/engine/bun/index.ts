/**
 * The Bun engine (`new App({ engine: 'bun' })`): the app served by `Bun.serve` with no
 * `node:http` underneath, through the same route table, compiled routes and answer path as the
 * Fastify engine. Features it does not serve are refused by name when the app is created or
 * started.
 * @module
 */
import type { FastifyCorsOptions } from '@fastify/cors';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { ResolvedConfig } from '../../config/index.js';
import { keelsonError } from '../../errors/index.js';
import type { EngineServer } from '../../lifecycle/engine-server.js';
import type { AppRuntime } from '../../routing/runtime.js';
import { checkTimeout } from '../../routing/timeout.js';
import { onBun, RuntimeUnsupportedError, refuseOnBunEngine, runtimeName } from '../../runtime.js';
import { type AnswerOptions, type AnswerPath, answerPathFor } from '../answer.js';
import type { AppEngineCore, EngineInfo, EngineMountPlan } from '../contract.js';
import type { TrustProxy } from '../engine.js';
import { methodIndex } from '../errors.js';
import { type SecurityHeaders, securityHeadersFor } from '../security-headers.js';
import { addressFinder } from './address.js';
import type { CookieJar } from './cookie-jar.js';
import { bunCors } from './cors.js';
import { bunDispatch, type Dispatch } from './dispatch.js';
import { bunInject } from './inject.js';
import type { BunReply } from './reply.js';
import { bunRouter } from './routes.js';
import { bunServer } from './server.js';

/** The App options the Bun engine reads. */
export interface BunEngineOptions extends AnswerOptions {
  readonly cors?: FastifyCorsOptions | false | undefined;
  readonly helmet?: Parameters<typeof securityHeadersFor>[0];
  readonly timeoutMs?: number | undefined;
  readonly trustProxy?: TrustProxy | undefined;
  readonly compress?: unknown;
}

/** The methods the app routes, HEAD included for GET routes. */
function routedMethods(plan: EngineMountPlan): string[] {
  const methods = new Set<string>();
  for (const r of plan.routes) {
    methods.add(r.method);
    if (r.method === 'GET') methods.add('HEAD');
  }
  return [...methods].sort();
}

/** The Bun engine under an App. */
export class BunEngine implements AppEngineCore {
  readonly runtime: AppRuntime;
  readonly answerPath: AnswerPath;
  readonly security: SecurityHeaders;
  readonly server: EngineServer & { current(): ReturnType<EngineServerCurrent> };
  readonly info: EngineInfo;
  readonly #options: BunEngineOptions;
  readonly #config: ResolvedConfig;
  readonly #inFlight = new Set<BunReply>();
  readonly #cookies: CookieJar;
  #dispatch: Dispatch | undefined;

  /** Checks that this is Bun and that every option is served. @throws naming what is not */
  constructor(
    options: BunEngineOptions,
    config: ResolvedConfig,
    runtime: AppRuntime,
    cookies: CookieJar,
  ) {
    if (!onBun()) {
      throw new RuntimeUnsupportedError(
        "engine: 'bun'",
        runtimeName(),
        'the Bun engine runs on Bun only; run the service with bun, or leave out `engine` (the Fastify engine runs on both)',
      );
    }
    if (options.compress !== undefined && options.compress !== false) {
      refuseOnBunEngine('The compress option');
    }
    this.security = securityHeadersFor(options.helmet);
    if (this.security.perRequest) refuseOnBunEngine('helmet options computed per request');
    checkTimeout(options.timeoutMs, 'new App()');
    this.runtime = runtime;
    this.#options = options;
    this.#config = config;
    this.#cookies = cookies;
    this.answerPath = answerPathFor(options, runtime, this.security);
    const server = bunServer({
      config,
      dispatch: () => this.#mounted(),
      inFlight: this.#inFlight,
      cut: (reply, why) => {
        this.#inFlight.delete(reply);
        reply.send(keelsonError('SERVICE_UNAVAILABLE', why));
      },
    });
    this.server = server;
    this.info = {
      name: 'bun',
      get server() {
        return server.current();
      },
    };
  }

  /** Static files are not served by the Bun engine. */
  addStatic(): void {
    refuseOnBunEngine('Static files (app.static())');
  }

  /** Compiles the route table into the dispatcher. */
  async mount(plan: EngineMountPlan): Promise<void> {
    const options = this.#options;
    const cors = options.cors ?? { origin: '*' };
    this.#dispatch = bunDispatch({
      answerPath: this.answerPath,
      runtime: this.runtime,
      router: bunRouter(plan.routes, this.runtime, plan.appMiddleware, options.timeoutMs),
      allowed: methodIndex(plan.routes),
      cors: cors === false ? undefined : bunCors(cors, routedMethods(plan)),
      bodyLimit: this.#config.bodyLimit,
      draining: this.runtime.shutdownBegun,
      inFlight: this.#inFlight,
      addressOf: addressFinder(options.trustProxy),
      cookies: this.#cookies,
    });
  }

  /** Serves one request with no socket. */
  inject(request: InjectOptions | string): Promise<LightMyRequestResponse> {
    return bunInject(this.#mounted(), request);
  }

  #mounted(): Dispatch {
    if (!this.#dispatch) throw new Error('the Bun engine is not mounted yet');
    return this.#dispatch;
  }
}

type EngineServerCurrent = ReturnType<typeof bunServer>['current'];
