/**
 * What the dev panel streams: the last requests and log lines, kept in rings, and the open
 * event streams that are told of each new one.
 * @module
 */
import type { RequestObserver } from '../routing/runtime.js';
import { maskValue } from './mask.js';
import { Ring } from './ring.js';

/** One finished request as the panel shows it. */
export interface PanelRequest {
  /** Increases by one per event, so a client can order them. */
  readonly seq: number;
  /** When it finished, epoch ms. */
  readonly time: number;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly durationMs: number;
  readonly requestId: string;
  /** The database queries the request ran (keelson/db), at most 50, in order. */
  readonly queries: readonly PanelQuery[];
}

/** One database query of a request, as the panel shows it: the text, never the values. */
export interface PanelQuery {
  readonly text: string;
  readonly durationMs: number;
  readonly failed: boolean;
}

const MAX_QUERIES = 50;
const queriesOf = new WeakMap<object, PanelQuery[]>();
let feeds = 0;

/**
 * Notes a query of `request` (a Fastify request) for the panel's request list; does nothing
 * when no app in the process has a panel.
 */
export function notePanelQuery(request: object, query: PanelQuery): void {
  if (feeds === 0) return;
  const list = queriesOf.get(request);
  if (!list) queriesOf.set(request, [query]);
  else if (list.length < MAX_QUERIES) list.push(query);
}

/** One log line as the panel shows it. */
export interface PanelLog {
  /** Increases by one per event. */
  readonly seq: number;
  /** The line as the logger wrote it, without its newline. */
  readonly line: string;
}

/** An event of the stream. */
export type PanelEvent =
  | { readonly type: 'request'; readonly data: PanelRequest }
  | { readonly type: 'log'; readonly data: PanelLog };

/** The panel's path; its own requests are never recorded. */
export const PANEL_PATH = '/_keelson';

/** True for a path of the panel itself. */
function isPanelPath(path: string): boolean {
  return (
    path.startsWith(PANEL_PATH) &&
    (path.length === PANEL_PATH.length || path[PANEL_PATH.length] === '/')
  );
}

/** The rings and the subscribers of one app's panel. */
export class PanelFeed {
  readonly #requests: Ring<PanelRequest>;
  readonly #logs: Ring<PanelLog>;
  readonly #subscribers = new Set<(event: PanelEvent) => void>();
  #seq = 0;

  /** Keeps the last `maxRequests` requests and `maxLogLines` log lines. */
  constructor(maxRequests: number, maxLogLines: number) {
    this.#requests = new Ring(maxRequests);
    this.#logs = new Ring(maxLogLines);
    feeds++;
  }

  /** The request observer: records every request but the panel's own, which it keeps quiet. */
  readonly observer: RequestObserver = (entry, request) => {
    if (isPanelPath(entry.path)) return true;
    const data: PanelRequest = {
      seq: ++this.#seq,
      time: Date.now(),
      method: entry.method,
      path: entry.path,
      status: entry.status,
      durationMs: entry.durationMs,
      requestId: request.id,
      queries: queriesOf.get(request) ?? [],
    };
    this.#requests.push(data);
    this.#emit({ type: 'request', data });
    return false;
  };

  /** The logger tap: records one written line, its secrets masked (the log itself keeps them). */
  readonly tap = (chunk: string): void => {
    const line = maskValue(chunk.charCodeAt(chunk.length - 1) === 10 ? chunk.slice(0, -1) : chunk);
    const data: PanelLog = { seq: ++this.#seq, line };
    this.#logs.push(data);
    this.#emit({ type: 'log', data });
  };

  /** Everything still in the rings, oldest first, requests then logs. */
  backlog(): PanelEvent[] {
    return [
      ...this.#requests.toArray().map((data) => ({ type: 'request' as const, data })),
      ...this.#logs.toArray().map((data) => ({ type: 'log' as const, data })),
    ];
  }

  /** Calls `listener` with each new event until the returned function is called. */
  subscribe(listener: (event: PanelEvent) => void): () => void {
    this.#subscribers.add(listener);
    return () => this.#subscribers.delete(listener);
  }

  #emit(event: PanelEvent): void {
    for (const listener of this.#subscribers) listener(event);
  }
}
