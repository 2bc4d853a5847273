/**
 * Loading an optional peer dependency with an error that says how to install it.
 * @module
 */

/** True when `err` says that `name` itself (not something inside it) cannot be found. */
function isMissing(err: unknown, name: string): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return (
    e !== null &&
    typeof e === 'object' &&
    (e.code === 'ERR_MODULE_NOT_FOUND' || e.code === 'MODULE_NOT_FOUND') &&
    typeof e.message === 'string' &&
    e.message.includes(`'${name}'`)
  );
}

/**
 * Runs `load` (an `import()` of the optional peer `name`); when the package is not installed,
 * throws an Error naming the entry that needs it and the command that installs it.
 */
export async function importPeer<T>(
  name: string,
  entry: string,
  load: () => Promise<T>,
): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (isMissing(err, name)) {
      throw new Error(
        `${entry} needs the package '${name}', an optional peer dependency: npm install ${name}`,
        { cause: err },
      );
    }
    throw err;
  }
}
