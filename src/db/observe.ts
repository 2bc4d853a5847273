/**
 * What each query tells the app: a duration metric by operation, a client span with the
 * database conventions (the text, never the values), and a warning when it is slow.
 * @module
 */
import type { MetricsCollector, Span, Tracer } from '../contracts.js';
import { notePanelQuery } from '../devpanel/feed.js';
import type { Logger } from '../logger/index.js';
import type { RequestScope } from './tx.js';

const OPERATIONS = new Set(['select', 'insert', 'update', 'delete']);

/** The statement's kind for metrics and spans: `select`, `insert`, `update`, `delete` or `other`. */
export function operationOf(text: string): string {
  const word = /^\s*(?:--[^\n]*\n\s*)*([a-z]+)/i.exec(text)?.[1]?.toLowerCase() ?? '';
  return OPERATIONS.has(word) ? word : 'other';
}

/** Where the observations go; each part may be absent. */
export interface QueryObservers {
  readonly metrics: () => MetricsCollector | undefined;
  readonly tracer: () => Tracer | undefined;
  readonly logger: () => Logger;
  readonly slowQueryMs: number;
}

/** Observes one query: call the returned function when it ends. */
export function observeQuery(
  observers: QueryObservers,
  text: string,
  request: RequestScope | undefined,
): (error: unknown) => void {
  const started = performance.now();
  const operation = operationOf(text);
  const tracer = observers.tracer();
  const span: Span | undefined = tracer?.start(`db ${operation}`, {
    kind: 'client',
    attributes: {
      'db.system.name': 'postgresql',
      'db.operation.name': operation.toUpperCase(),
      'db.query.text': text,
    },
    ...(request ? { parent: request.span } : {}),
  });
  return function queryEnded(error) {
    const durationMs = performance.now() - started;
    if (span) {
      if (error !== undefined) span.recordError(error);
      span.end();
    }
    const failed = error !== undefined;
    observers.metrics()?.recordQuery?.({ operation, durationMs, failed });
    if (request) notePanelQuery(request.request, { text, durationMs, failed });
    if (durationMs >= observers.slowQueryMs) {
      (request?.log ?? observers.logger()).warn(
        'slow query (%d ms): %s',
        Math.round(durationMs),
        text.replace(/\s+/g, ' ').trim(),
      );
    }
  };
}
