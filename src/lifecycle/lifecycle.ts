/**
 * The running of an App: listen, signals, and the graceful shutdown.
 * @module
 */
import type { ResolvedConfig } from '../config/index.js';
import type { Scheduler, ShutdownHook } from '../contracts.js';
import type { Logger } from '../logger/index.js';
import { watchProcessFaults } from '../process-faults.js';
import type { Connections, EngineServer } from './engine-server.js';
import { flushBy, gracefulShutdown, type ShutdownOutcome } from './shutdown.js';

/** What a Lifecycle runs. */
export interface LifecycleOptions {
  readonly config: ResolvedConfig;
  readonly logger: Logger;
  /** The engine, created after the lifecycle (its answer path needs the shutdown signals). */
  readonly engine: () => EngineServer;
  /** Builds the engine. */
  readonly ready: () => Promise<void>;
}

type State = 'created' | 'starting' | 'serving' | 'closing' | 'closed';

/**
 * A repeat of the first signal within this many ms is the same signal delivered twice (`bun run`
 * forwards a signal sent to the whole process group, which the service also receives itself):
 * not the "exit now" of a second Ctrl+C.
 */
export const SIGNAL_REPEAT_MS = 50;

/**
 * Listens, waits for SIGINT or SIGTERM, and shuts down gracefully: `shutdownBegun` aborts the
 * moment the signal arrives (readiness answers 503 from then on), the service keeps serving
 * for `drainDelayMs`, then drains, runs the hooks and flushes the log, each within its share
 * of `shutdownTimeoutMs`; `shutdownDeadline` aborts when the hooks' time is up.
 */
export class Lifecycle {
  readonly #options: LifecycleOptions;
  readonly #begun = new AbortController();
  readonly #deadline = new AbortController();
  readonly #hooks: ShutdownHook[] = [];
  readonly #lastHooks: ShutdownHook[] = [];
  #scheduler: Scheduler | undefined;
  #state: State = 'created';
  #address: string | undefined;
  #connections: Connections | undefined;
  #shutdown: Promise<ShutdownOutcome> | undefined;
  #closing: Promise<boolean> | undefined;
  #stopped: (() => void) | undefined;
  #firstSignal: { readonly signal: NodeJS.Signals; readonly at: number } | undefined;

  /** Prepares the lifecycle; nothing runs until `listen()` or `close()`. */
  constructor(options: LifecycleOptions) {
    this.#options = options;
  }

  /**
   * Adds a shutdown hook; hooks run one after another in registration order, those added with
   * `last` after all the others (a database pool, which the other hooks may still use).
   */
  addHook(hook: ShutdownHook, last = false): void {
    if (typeof hook !== 'function') {
      throw new TypeError(`a shutdown hook must be a function, got ${typeof hook}`);
    }
    (last ? this.#lastHooks : this.#hooks).push(hook);
  }

  /** Sets the scheduler: started once the server listens, stopped by a hook added now. */
  setScheduler(scheduler: Scheduler): void {
    if (
      !scheduler ||
      typeof scheduler.start !== 'function' ||
      typeof scheduler.stop !== 'function'
    ) {
      throw new TypeError('a scheduler must have start() and stop(signal) methods');
    }
    if (this.#scheduler) throw new Error('a scheduler is already registered');
    this.#scheduler = scheduler;
    this.#hooks.push(function stopScheduler(signal) {
      return scheduler.stop(signal);
    });
  }

  /** The registered scheduler, if any. */
  get scheduler(): Scheduler | undefined {
    return this.#scheduler;
  }

  /** Aborted the moment shutdown begins. */
  get shutdownBegun(): AbortSignal {
    return this.#begun.signal;
  }

  /** Aborted when the shutdown hooks' time is up. */
  get shutdownDeadline(): AbortSignal {
    return this.#deadline.signal;
  }

  /** The URL the server is bound to, once bound. */
  get address(): string | undefined {
    return this.#address;
  }

  /** Binds the port and serves until a signal, then shuts down and exits. */
  async listen(): Promise<void> {
    const { config, logger } = this.#options;
    const engine = this.#options.engine();
    if (this.#state !== 'created')
      throw new Error(`listen() called on an app that is ${this.#state}`);
    this.#state = 'starting';
    const stopped = new Promise<void>((resolve) => {
      this.#stopped = resolve;
    });
    const onSignal = (signal: NodeJS.Signals) => this.#onSignal(signal);
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    const stopWatchingFaults = watchProcessFaults(logger);
    const removeSignals = () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      stopWatchingFaults();
    };
    try {
      await this.#options.ready();
    } catch (err) {
      removeSignals();
      logger.error('%s cannot start: %s', config.serviceName, (err as Error).message);
    }
    // close() while starting: binding now would serve on after the shutdown has run.
    if (this.#state !== 'starting') {
      removeSignals();
      await stopped;
      return;
    }
    const { port, host, sendTimeoutMs } = config;
    this.#connections = engine.track({ sendTimeoutMs, logger });
    try {
      this.#address = await engine.listen(port, host);
    } catch (err) {
      removeSignals();
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') logger.error('port %d is already in use (host %s)', port, host);
      if (code === 'EACCES')
        logger.error('no permission to listen on port %d (host %s)', port, host);
      logger.error('cannot listen on %s:%d: %s', host, port, (err as Error).message);
    }
    if (this.#state === 'starting') this.#state = 'serving';
    const docs = config.docs.enabled ? ` (docs: ${this.#address}${config.docs.path})` : '';
    // An env nobody gave is said, so a production run that is not one shows at once.
    const env =
      config.envFrom === 'config'
        ? ''
        : ` (env ${config.env}, ${config.envFrom === 'NODE_ENV' ? 'from NODE_ENV' : 'the default: set env or NODE_ENV'})`;
    logger.info('%s listening on %s%s%s', config.serviceName, this.#address, docs, env);
    this.#scheduler?.start({ logger, shutdownBegun: this.#begun.signal });
    await stopped;
    removeSignals();
  }

  /** Runs the graceful shutdown and the final flush, without exiting; true when all went well. */
  close(): Promise<boolean> {
    this.#closing ??= this.#run().then(
      ({ ok, endsAt }) => flushBy(this.#options.logger, endsAt) && ok,
    );
    return this.#closing;
  }

  #run(): Promise<ShutdownOutcome> {
    this.#shutdown ??= (() => {
      const { config, logger } = this.#options;
      const engine = this.#options.engine();
      this.#state = 'closing';
      this.#begun.abort(new Error('the app is shutting down'));
      return gracefulShutdown({
        engine,
        connections: this.#connections,
        hooks: [...this.#hooks, ...this.#lastHooks],
        logger,
        timeoutMs: config.shutdownTimeoutMs,
        drainDelayMs: config.drainDelayMs,
        deadline: this.#deadline,
      }).then((outcome) => {
        this.#state = 'closed';
        this.#stopped?.();
        return outcome;
      });
    })();
    return this.#shutdown;
  }

  #onSignal(signal: NodeJS.Signals): void {
    const { config, logger } = this.#options;
    const first = this.#firstSignal;
    if (first?.signal === signal && performance.now() - first.at < SIGNAL_REPEAT_MS) {
      logger.info('%s delivered twice within %d ms: taken as one', signal, SIGNAL_REPEAT_MS);
      return;
    }
    if (this.#shutdown) {
      logger.warn('%s received again during shutdown: exiting now', signal);
      flushBy(logger, Date.now() + 1_000);
      process.exit(1);
    }
    this.#firstSignal = { signal, at: performance.now() };
    logger.info('%s received: shutting down', signal);
    this.#closing = this.#run().then(({ ok, endsAt }) => {
      logger.info('%s stopped%s', config.serviceName, ok ? '' : ' with errors');
      // A log that cannot be flushed by the deadline is an error too: lines were lost.
      const flushed = flushBy(logger, endsAt);
      // Let the code after `await app.listen()` run before the process ends.
      setImmediate(() => process.exit(ok && flushed ? 0 : 1));
      return ok && flushed;
    });
  }
}
