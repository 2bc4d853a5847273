/**
 * The mark a response cut off before it was sent in full carries to the request log.
 * @module
 */
import type { ServerResponse } from 'node:http';

const CUT_OFF = Symbol('keelson.cutOff');

type Marked = ServerResponse & { [CUT_OFF]?: string };

/** Marks `res` as cut off, and why; the request log writes `why` as the entry's error. */
export function markCutOff(res: ServerResponse, why: string): void {
  (res as Marked)[CUT_OFF] = why;
}

/** Why `res` was cut off, or undefined for a response that was not. */
export function cutOffReason(res: ServerResponse): string | undefined {
  return (res as Marked)[CUT_OFF];
}

const ANSWERED_AT_EDGE = Symbol('keelson.answeredAtEdge');

type Answered = ServerResponse & { [ANSWERED_AT_EDGE]?: true };

/**
 * Marks the response of a request the server's client-error handler answered on the socket
 * itself (a 408 mid-body): the request already has its log entry, the engine's must not add one.
 */
export function markAnsweredAtEdge(res: ServerResponse): void {
  (res as Answered)[ANSWERED_AT_EDGE] = true;
}

/** True when the client-error handler answered (and logged) this response's request. */
export function answeredAtEdge(res: ServerResponse): boolean {
  return (res as Answered)[ANSWERED_AT_EDGE] === true;
}
