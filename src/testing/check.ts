/**
 * Checks one response against the OpenAPI document: its status is declared, its media type is
 * declared for that status, and its body is valid under the declared schema (JSON Schema
 * 2020-12, as OpenAPI 3.1 uses it).
 * @module
 */
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import type { OpenApiDocument, OperationObject, ResponseObject } from '../docs/types.js';

/** A response as the checker sees it. */
export interface CheckedResponse {
  /** The HTTP status. */
  readonly status: number;
  /** The `content-type` header, if any. */
  readonly contentType: string | undefined;
  /** The body as text; `''` when there is none. */
  readonly body: string;
}

/** The document entry a response is answered for, or why none is. */
function declaredResponse(op: OperationObject, status: number): ResponseObject | undefined {
  const r = op.responses;
  return r[String(status)] ?? r[`${Math.floor(status / 100)}XX`] ?? r.default;
}

/** Whether a media type is JSON: `application/json` or a `+json` suffix. */
export function isJson(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

function mediaTypeOf(contentType: string | undefined): string | undefined {
  return contentType?.split(';')[0]?.trim().toLowerCase() || undefined;
}

function matches(declared: string, actual: string): boolean {
  const d = declared.toLowerCase();
  if (d === actual || d === '*/*') return true;
  return d.endsWith('/*') && actual.startsWith(d.slice(0, -1));
}

/** Validates bodies against a document's schemas, compiling each schema once. */
export class ResponseChecker {
  readonly #ajv: Ajv2020;
  readonly #doc: OpenApiDocument;
  readonly #compiled = new WeakMap<object, ValidateFunction>();

  /** Checks against `doc`, validating with `ajv`. */
  constructor(ajv: Ajv2020, doc: OpenApiDocument) {
    this.#ajv = ajv;
    this.#doc = doc;
  }

  /** What is wrong with `res` as an answer of `op`; an empty list when it agrees. */
  check(op: OperationObject, method: string, res: CheckedResponse): string[] {
    const declared = declaredResponse(op, res.status);
    if (!declared) return [`status ${res.status} is not declared`];
    const content = declared.content;
    const media = mediaTypeOf(res.contentType);
    const empty = res.body.length === 0;
    if (!content || method === 'HEAD') {
      return empty || method === 'HEAD'
        ? []
        : [
            `status ${res.status} is declared without a body, but one was sent (${media ?? 'no content-type'})`,
          ];
    }
    if (empty)
      return [
        `status ${res.status} declares a body (${Object.keys(content).join(', ')}), none was sent`,
      ];
    if (!media) return [`status ${res.status} has a body without a content-type`];
    const key = Object.keys(content).find((k) => matches(k, media));
    if (key === undefined) {
      return [
        `media type ${media} is not declared for status ${res.status} (declared: ${Object.keys(content).join(', ')})`,
      ];
    }
    const schema = content[key]!.schema;
    if (!schema) return [];
    let value: unknown = res.body;
    if (isJson(media)) {
      try {
        value = JSON.parse(res.body);
      } catch {
        return [`the ${media} body is not JSON: ${res.body.slice(0, 80)}`];
      }
    } else if (schema.type !== 'string') {
      return [];
    }
    const validate = this.#validator(schema);
    if (validate(value)) return [];
    const why = (validate.errors ?? [])
      .slice(0, 3)
      .map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`)
      .join('; ');
    return [`the body does not match the schema of status ${res.status}: ${why}`];
  }

  /** Whether `schema` (of this document) accepts `value`; true when Ajv cannot compile it. */
  accepts(schema: object, value: unknown): boolean {
    let validate: ValidateFunction;
    try {
      validate = this.#validator(schema);
    } catch {
      return true;
    }
    return validate(value) === true;
  }

  #validator(schema: object): ValidateFunction {
    let v = this.#compiled.get(schema);
    if (!v) {
      // The schema's `#/components/schemas/…` refs resolve inside this root.
      v = this.#ajv.compile({ ...schema, components: { schemas: this.#doc.components.schemas } });
      this.#compiled.set(schema, v);
    }
    return v;
  }
}
