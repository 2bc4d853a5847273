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
import type { EngineServer } from '../../lifecycle/engine-server.js';
import type { AppRuntime } from '../../routing/runtime.js';
import { checkTimeout } from '../../routing/timeout.js';
import { onBun, RuntimeUnsupportedError, refuseOnBunEngine, runtimeName } from '../../runtime.js';
import { type AnswerOptions, type AnswerPath, answerPathFor } from '../answer.js';
import type { AppEngineCore, EngineInfo, EngineMountPlan } from '../contract.js';
import { routedMethods } from '../cors.js';
import type { TrustProxy } from '../engine.js';
import { methodIndex } from '../errors.js';
import { type SecurityHeaders, securityHeadersFor } from '../security-headers.js';
import { addressFinder, peerTrust } from './address.js';
import type { BunServer } from './bun-types.js';
import type { Compressor } from './compressor.js';
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
  readonly #compressor: Compressor | undefined;
  #dispatch: Dispatch | undefined;

  /** Checks that this is Bun and that every option is served. @throws naming what is not */
  constructor(
    options: BunEngineOptions,
    config: ResolvedConfig,
    runtime: AppRuntime,
    features: { readonly cookies: CookieJar; readonly compressor: Compressor | undefined },
  ) {
    if (!onBun()) {
      throw new RuntimeUnsupportedError(
        "engine: 'bun'",
        runtimeName(),
        'the Bun engine runs on Bun only; run the service with bun, or leave out `engine` (the Fastify engine runs on both)',
      );
    }
    this.security = securityHeadersFor(options.helmet);
    if (this.security.perRequest) refuseOnBunEngine('helmet options computed per request');
    checkTimeout(options.timeoutMs, 'new App()');
    this.runtime = runtime;
    this.#options = options;
    this.#config = config;
    this.#cookies = features.cookies;
    this.#compressor = features.compressor;
    this.answerPath = answerPathFor(options, runtime, this.security);
    const server = bunServer({
      config,
      dispatch: () => this.#mounted(),
      inFlight: this.#inFlight,
      cut: (reply, why) => {
        this.#inFlight.delete(reply);
        reply.cut(`request cut off before an answer: ${why}`);
      },
    });
    this.server = server;
    const fetch = (request: Request, bunServer?: BunServer) =>
      Promise.resolve(this.#mounted()(request, bunServer));
    this.info = {
      name: 'bun',
      get server() {
        return server.current();
      },
      fetch,
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
      cors: cors === false ? undefined : bunCors(cors, routedMethods(plan.routes)),
      bodyLimit: this.#config.bodyLimit,
      draining: this.runtime.shutdownBegun,
      inFlight: this.#inFlight,
      addressOf: addressFinder(options.trustProxy),
      trustsPeer: peerTrust(options.trustProxy),
      cookies: this.#cookies,
      compressor: this.#compressor,
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
