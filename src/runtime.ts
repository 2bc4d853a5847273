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

/** The `code` of the error `refuseOnEngine` throws. */
export const ENGINE_UNSUPPORTED = 'KEELSON_ENGINE_UNSUPPORTED';

/** Thrown when a Keelson feature is used on an engine that does not serve it (the Bun engine). */
export class EngineUnsupportedError extends Error {
  /** Always `KEELSON_ENGINE_UNSUPPORTED`. */
  readonly code = ENGINE_UNSUPPORTED;
  /** The feature refused, e.g. `the cookies option`. */
  readonly feature: string;
  /** The engine that does not serve it: `bun`. */
  readonly engine: string;

  /** `why` says what to do instead. */
  constructor(feature: string, engine: string, why: string) {
    super(
      `${feature} is not available on the ${engine === 'bun' ? 'Bun' : engine} engine (engine: '${engine}'): ${why}`,
    );
    this.name = 'EngineUnsupportedError';
    this.feature = feature;
    this.engine = engine;
  }
}

/** What to do instead of a feature the Bun engine refuses. */
export const ON_FASTIFY_ENGINE =
  "leave out `engine: 'bun'` (the default Fastify engine serves it, on Bun too)";

/** Throws an EngineUnsupportedError for `feature` on the Bun engine. */
export function refuseOnBunEngine(feature: string): never {
  throw new EngineUnsupportedError(feature, 'bun', ON_FASTIFY_ENGINE);
}
