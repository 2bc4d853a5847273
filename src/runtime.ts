/**
 * Which JavaScript runtime runs this process, and the refusal of a feature that runtime
 * cannot run, so it fails at startup with a message naming both instead of misbehaving later.
 * @module
 */

/** The `code` of the error `refuseOnRuntime` throws. */
export const RUNTIME_UNSUPPORTED = 'KEELSON_RUNTIME_UNSUPPORTED';

/** Thrown at startup when a Keelson feature cannot run on the runtime of this process. */
export class RuntimeUnsupportedError extends Error {
  /** Always `KEELSON_RUNTIME_UNSUPPORTED`. */
  readonly code = RUNTIME_UNSUPPORTED;
  /** The Keelson feature refused, e.g. `keelson/cluster`. */
  readonly feature: string;
  /** The runtime that cannot run it, with its version, e.g. `Bun 1.4.5`. */
  readonly runtime: string;

  /** Made by `refuseOnRuntime`; `why` says what the runtime lacks and what to do instead. */
  constructor(feature: string, runtime: string, why: string) {
    super(`${feature} does not run on ${runtime}: ${why}`);
    this.name = 'RuntimeUnsupportedError';
    this.feature = feature;
    this.runtime = runtime;
  }
}

/** The runtime of this process: `Bun 1.4.5`, or `Node.js 24.1.0`. */
export function runtimeName(versions: NodeJS.ProcessVersions = process.versions): string {
  const bun = (versions as { bun?: string }).bun;
  return bun === undefined ? `Node.js ${versions.node}` : `Bun ${bun}`;
}

/** Whether this process runs on Bun (which also sets `process.versions.node`). */
export function onBun(versions: NodeJS.ProcessVersions = process.versions): boolean {
  return typeof (versions as { bun?: string }).bun === 'string';
}

/** Throws a RuntimeUnsupportedError for `feature` when this process runs on Bun. */
export function refuseOnBun(
  feature: string,
  why: string,
  versions: NodeJS.ProcessVersions = process.versions,
): void {
  if (onBun(versions)) throw new RuntimeUnsupportedError(feature, runtimeName(versions), why);
}
