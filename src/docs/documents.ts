/**
 * The OpenAPI documents of an app: the whole one, and one per API version, each built once.
 * @module
 */
import type { ResolvedConfig } from '../config/index.js';
import type { RouteEntry } from '../routing/table.js';
import {
  type BuildOpenApiOptions,
  buildOpenApi,
  type OpenApiDocument,
  versionsOf,
} from './openapi.js';

/** What the documents are built from, read when one is first built. */
export interface DocumentSource {
  /** The app's resolved config. */
  readonly config: ResolvedConfig;
  /** The route table, built-in routes included. */
  readonly routes: () => readonly RouteEntry[];
  /** The error body and the app middleware. */
  readonly options: () => BuildOpenApiOptions;
}

/** The documents of one app, built on first use and kept. */
export class OpenApiDocuments {
  readonly #source: DocumentSource;
  #all: OpenApiDocument | undefined;
  readonly #byVersion = new Map<string, OpenApiDocument>();

  /** Documents of `source`; nothing is built yet. */
  constructor(source: DocumentSource) {
    this.#source = source;
  }

  /** The API versions the route table has, in the order their groups were made. */
  get versions(): string[] {
    return versionsOf(this.#source.routes());
  }

  /**
   * The document of `version` (its routes and those of no version), or of every route when
   * `version` is undefined. Throws naming the versions there are for one with no routes.
   */
  get(version?: string): OpenApiDocument {
    const { config, routes, options } = this.#source;
    if (version === undefined) {
      this.#all ??= buildOpenApi(config, routes(), options());
      return this.#all;
    }
    let doc = this.#byVersion.get(version);
    if (!doc) {
      const known = this.versions;
      if (!known.includes(version)) {
        const list = known.length ? known.map((v) => JSON.stringify(v)).join(', ') : 'none';
        throw new Error(`no API version ${JSON.stringify(version)}; the versions are: ${list}`);
      }
      doc = buildOpenApi(config, routes(), { ...options(), version });
      this.#byVersion.set(version, doc);
    }
    return doc;
  }

  /** Builds the whole document now (at startup, so a schema it cannot express fails the start). */
  build(): OpenApiDocument {
    return this.get();
  }
}
