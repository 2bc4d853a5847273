/** A one-string account of a thrown value for the log: its stack, else its message. */
export function describeError(error: unknown): string {
  try {
    if (error instanceof Error) {
      const stack =
        typeof error.stack === 'string' ? error.stack : `${error.name}: ${error.message}`;
      return error.cause === undefined
        ? stack
        : `${stack}\ncaused by: ${describeError(error.cause)}`;
    }
    return typeof error === 'string' ? error : String(error);
  } catch {
    return 'an unprintable value';
  }
}
