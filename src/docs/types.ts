/**
 * The shapes of the OpenAPI 3.1 document Keelson generates.
 * @module
 */

import type { DocsContact, DocsLicense, DocsTag, ResolvedDocsServer } from '../config/index.js';
import type { DocsSecurityScheme } from '../config/security.js';

/** A JSON Schema (draft 2020-12) object, as OpenAPI 3.1 embeds it. */
export type JsonSchema = { [key: string]: unknown };

/** One parameter of an operation. */
export interface ParameterObject {
  /** The parameter's name. */
  name: string;
  /** Where it is sent. */
  in: 'path' | 'query' | 'header' | 'cookie';
  /** Always true for path parameters. */
  required: boolean;
  /** What it is for. */
  description?: string;
  /** Marks it deprecated. */
  deprecated?: boolean;
  /** Its schema. */
  schema: JsonSchema;
}

/** A body by media type: JSON, problem+json, text, binary, multipart, an event stream. */
export type ContentObject = Record<string, MediaTypeObject>;

/** A body of one media type. */
export interface MediaTypeObject {
  /** Its schema; absent for a body of any shape (e.g. binary). */
  schema?: JsonSchema;
  /** An example body. */
  example?: unknown;
}

/** A response header. */
export interface HeaderObject {
  /** What it means. */
  description?: string;
  /** Its schema. */
  schema: JsonSchema;
}

/** One response of an operation. */
export interface ResponseObject {
  /** The reason phrase of its status. */
  description: string;
  /** Headers sent with it. */
  headers?: Record<string, HeaderObject>;
  /** Its body, absent when it has none. */
  content?: ContentObject;
  /** Operations this response gives values to, by link name. */
  links?: Record<string, LinkObject>;
}

/** A link: where another operation's parameters come from in a response (runtime expressions). */
export interface LinkObject {
  /** The operation the values are for. */
  operationId: string;
  /** Its parameters, by name: `$response.body#/id`, `$response.header.Location`, `$request.path.id`. */
  parameters: Record<string, string>;
  /** What it is for. */
  description?: string;
}

/** One operation: a method of a path. */
export interface OperationObject {
  /** Unique in the document. */
  operationId: string;
  /** A one-line summary. */
  summary?: string;
  /** A longer description. */
  description?: string;
  /** Tags that group it. */
  tags?: string[];
  /** Marks it deprecated. */
  deprecated?: boolean;
  /** Path, query and header parameters. */
  parameters?: ParameterObject[];
  /** The request body. */
  requestBody?: { required: boolean; content: ContentObject };
  /** Responses by status, or a range (`4XX`). */
  responses: Record<string, ResponseObject>;
  /** The security requirements: scheme name → scopes. */
  security?: Record<string, string[]>[];
}

/** An OpenAPI 3.1 document, as served at `<docs.path>/openapi.json`. */
export interface OpenApiDocument {
  /** `3.1.0`. */
  openapi: '3.1.0';
  /** Title, version and the rest of DocsConfig. */
  info: {
    title: string;
    version: string;
    description?: string;
    contact?: DocsContact;
    license?: DocsLicense;
  };
  /** From `docs.servers`. */
  servers?: ResolvedDocsServer[];
  /** `docs.tags`, then every other tag a route uses. */
  tags?: DocsTag[];
  /** The security every operation requires unless it says otherwise. */
  security?: Record<string, string[]>[];
  /** Path template → lower-case method → operation. */
  paths: Record<string, Record<string, OperationObject>>;
  /** Shared schemas (by id, and `Problem`) and the security schemes. */
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes?: Record<string, DocsSecurityScheme>;
  };
}
