/**
 * The shapes of a comparison between two OpenAPI documents.
 * @module
 */

/** What kind of change one entry is, by its stable code. */
export type ChangeCode =
  | 'operation-removed'
  | 'operation-added'
  | 'operation-deprecated'
  | 'parameter-removed'
  | 'parameter-added'
  | 'parameter-required'
  | 'parameter-optional'
  | 'body-added'
  | 'body-removed'
  | 'body-required'
  | 'body-optional'
  | 'response-removed'
  | 'response-added'
  | 'header-removed'
  | 'header-added'
  | 'media-type-removed'
  | 'media-type-added'
  | 'type-changed'
  | 'type-narrowed'
  | 'type-widened'
  | 'enum-value-removed'
  | 'enum-value-added'
  | 'constraint-narrowed'
  | 'constraint-widened'
  | 'property-removed'
  | 'property-added'
  | 'property-required'
  | 'property-optional'
  | 'variant-removed'
  | 'variant-added';

/** One difference between the base document and the current one. */
export interface OpenApiChange {
  /** True when a client written against the base document can fail against the current one. */
  breaking: boolean;
  /** What changed, as a stable code (`property-removed`, `enum-value-added`…). */
  code: ChangeCode;
  /** The operation it affects: `GET /users/{id} (getUsersById)`. */
  operation: string;
  /**
   * Where, as a JSON pointer into the current document (into the base one for what was
   * removed); inside a component once a `$ref` was followed: `#/components/schemas/User/…`.
   */
  location: string;
  /** What changed, in words: `response field removed: email`. */
  message: string;
  /** Why a breaking change is accepted, e.g. `info.version 1.4.0 → 2.0.0`; absent otherwise. */
  accepted?: string;
}

/** What `diffOpenApi` and `breakingChanges` take; everything has a default. */
export interface DiffOpenApiOptions {
  /**
   * Accept breaking changes when the current `info.version` raises the base's major version
   * (`1.4.0` → `2.0.0`; the minor for `0.x`): they are still listed, with `accepted` set.
   * @default true
   */
  semver?: boolean;
}
