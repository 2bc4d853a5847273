import type { Tracer, Translator } from '../contracts.js';
import type { Logger } from '../logger/index.js';

/** What every request of one app shares: read at request time, so integrations set late still count. */
export interface RequestRuntime {
  /** The app's logger. */
  readonly logger: Logger;
  /** The translator, when one is set. */
  translator: Translator | undefined;
  /** The tracer; fixed once the app has started. */
  readonly tracer: Tracer;
  /** Aborts when the graceful shutdown begins (streams end, readiness turns 503). */
  readonly shutdownBegun: AbortSignal;
  /** Aborts when the shutdown's deadline passes (work still running must stop). */
  readonly shutdownDeadline: AbortSignal;
}
