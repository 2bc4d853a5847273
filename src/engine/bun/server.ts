/**
 * The listening side of the Bun engine: `Bun.serve` bound, drained and stopped as the lifecycle
 * asks. Bun tracks its connections itself; requests still unanswered when the drain's time is
 * up are logged once each, with why, and their connections closed.
 * @module
 */
import type { ResolvedConfig } from '../../config/index.js';
import type { Connections, EngineServer } from '../../lifecycle/engine-server.js';
import { type BunServer, bunGlobal } from './bun-types.js';
import type { Dispatch } from './dispatch.js';
import type { BunReply } from './reply.js';

/** The longest idle time Bun takes, in seconds. */
const MAX_IDLE_SECONDS = 255;

/** What the Bun server serves with. */
export interface BunServerPlan {
  readonly config: ResolvedConfig;
  /** The app's dispatcher, once the app is mounted. */
  readonly dispatch: () => Dispatch;
  /** Requests not yet answered. */
  readonly inFlight: Set<BunReply>;
  /** Cuts an unanswered request off: logs it once with `why` (status 503). */
  readonly cut: (reply: BunReply, why: string) => void;
}

/** The Bun engine's EngineServer; `current()` is the Bun server once listening. */
export function bunServer(
  plan: BunServerPlan,
): EngineServer & { current(): BunServer | undefined } {
  let server: BunServer | undefined;
  let stopped: Promise<void> | undefined;
  const cutAll = (why: string): number => {
    let n = 0;
    for (const reply of [...plan.inFlight]) {
      plan.cut(reply, why);
      n++;
    }
    void server?.stop(true);
    return n;
  };
  const connections: Connections = { cutUnanswered: cutAll, cutAll, stop: () => {} };
  return {
    current: () => server,
    track: () => connections,
    async listen(port, host) {
      const bun = bunGlobal();
      if (!bun) throw new Error('the Bun engine needs Bun: the `Bun` global is missing');
      const { config } = plan;
      const idle = Math.ceil(Math.max(config.keepAliveTimeoutMs, config.requestTimeoutMs) / 1000);
      const dispatch = plan.dispatch();
      server = bun.serve({
        port,
        hostname: host,
        idleTimeout: Math.min(MAX_IDLE_SECONDS, idle),
        // The engine applies the body limit itself, with a problem answer: Bun's own is a backstop.
        maxRequestBodySize: Math.max(config.bodyLimit * 2, 1_048_576),
        fetch: dispatch,
        error: () => new Response(null, { status: 500 }),
      });
      const name =
        host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
      return `http://${name}:${server.port}`;
    },
    close() {
      stopped ??= server ? server.stop(false) : Promise.resolve();
      return stopped;
    },
    closeIdle: () => {},
    closeAll: () => {
      void server?.stop(true);
    },
  };
}
