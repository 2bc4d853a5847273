/**
 * The layouts a Logger can write: `text` for people, `json` (one object per line) for machines.
 * @example newLoggerWithFormat(false, LogFormat.JSON)
 */
export const LogFormat = { Text: 'text', JSON: 'json' } as const;

/** One of the LogFormat values: `'text'` or `'json'`. */
export type LogFormat = (typeof LogFormat)[keyof typeof LogFormat];
