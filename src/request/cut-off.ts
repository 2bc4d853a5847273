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
