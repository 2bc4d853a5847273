/**
 * Request observers: in-process listeners told of every finished request, such as the dev
 * panel. The request hook calls them only when there are some.
 * @module
 */
import type { FastifyRequest } from 'fastify';
import type { RequestLogEntry } from '../logger/index.js';
import type { RequestObserver } from '../routing/runtime.js';

/** Tells every observer; true when one of them asked for the request to stay quiet. */
export function observeRequest(
  observers: readonly RequestObserver[],
  request: FastifyRequest,
  entry: RequestLogEntry,
): boolean {
  let quiet = false;
  for (const observer of observers) {
    try {
      if (observer(entry, request) === true) quiet = true;
    } catch {
      // An observer is a development aid: it must never break the request log.
    }
  }
  if (quiet) request.keelsonSpan?.end();
  return quiet;
}
