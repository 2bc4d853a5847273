/**
 * `multipart({...})` and `file({...})`: the body schema of an upload route. The collector turns
 * the form into `{ field: string, file: File }`; this schema then checks it like any body.
 * @module
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { MEDIA_MARKER, type MediaTyped } from '../routing/media-type.js';
import type { Schema } from '../routing/schema-types.js';
import { isStandardSchema } from '../standard-schema.js';

/** The media type of an upload body. */
export const MULTIPART_TYPE = 'multipart/form-data';

/** Options of one file field. */
export interface FileOptions {
  /** The largest file accepted, in bytes; a larger one is answered 413. @default 10 MiB */
  maxBytes?: number;
  /** The media types accepted (as the client declares them); another one is answered 415. @default any */
  types?: readonly string[];
  /** Whether the field may be left out; `c.body.<name>` is then `File | undefined`. @default false */
  optional?: boolean;
}

/** One file field of a multipart body; made by `file()`. */
export interface FileField<Optional extends boolean = boolean> {
  /** Marks a file field. */
  readonly kind: 'file';
  /** The largest file accepted, in bytes. */
  readonly maxBytes: number;
  /** The media types accepted, or undefined for any. */
  readonly types: readonly string[] | undefined;
  /** Whether the field may be left out. */
  readonly optional: Optional;
}

/** The fields of a multipart body: files, and text fields with a schema each. */
export type MultipartShape = Record<string, FileField | Schema>;

/** What the handler gets in `c.body`: a Web `File` per file field, the output of each text schema. */
export type MultipartOutput<S extends MultipartShape> = {
  [K in keyof S]: S[K] extends FileField<infer O>
    ? O extends true
      ? File | undefined
      : File
    : S[K] extends Schema
      ? StandardSchemaV1.InferOutput<S[K]>
      : never;
};

/** The form as the collector hands it over: text values and saved files. */
export type CollectedForm = Record<string, string | string[] | File>;

/** A multipart body schema: validates the collected form; marked `multipart/form-data` for the docs. */
export interface MultipartSchema<S extends MultipartShape = MultipartShape>
  extends StandardSchemaV1<CollectedForm, MultipartOutput<S>>,
    StandardJSONSchemaV1<CollectedForm, MultipartOutput<S>>,
    MediaTyped {
  /** The fields, as given to `multipart()`. */
  readonly shape: S;
  /** The standard properties of both specs. */
  readonly '~standard': StandardSchemaV1.Props<CollectedForm, MultipartOutput<S>> &
    StandardJSONSchemaV1.Props<CollectedForm, MultipartOutput<S>>;
}

/**
 * A file field of a `multipart()` body.
 * @example file({ maxBytes: 2 * 1024 * 1024, types: ['image/png'] })
 */
export function file<const O extends FileOptions = Record<never, never>>(
  options?: O,
): FileField<O extends { optional: true } ? true : false>;
export function file({
  maxBytes = 10 * 1024 * 1024,
  types,
  optional = false,
}: FileOptions = {}): FileField {
  if (!Number.isInteger(maxBytes) || maxBytes < 1) {
    throw new TypeError(`file(): maxBytes must be an integer >= 1, got ${String(maxBytes)}`);
  }
  if (types !== undefined && (!Array.isArray(types) || types.some((t) => typeof t !== 'string'))) {
    throw new TypeError('file(): types must be an array of media types such as "image/png"');
  }
  return Object.freeze({
    kind: 'file',
    maxBytes,
    types: types && Object.freeze(types.map((t) => t.toLowerCase())),
    optional,
  });
}

/** True when `value` is a field made by `file()`. */
export function isFileField(value: unknown): value is FileField {
  return typeof value === 'object' && value !== null && (value as FileField).kind === 'file';
}

/** The `multipart()` schema behind a body schema, or undefined for any other body. */
export function multipartOf(body: unknown): MultipartSchema | undefined {
  return typeof body === 'object' && body !== null && 'shape' in body && isMultipartMarked(body)
    ? (body as MultipartSchema)
    : undefined;
}

function isMultipartMarked(body: object): boolean {
  return (body as Partial<MediaTyped>)[MEDIA_MARKER]?.mediaType === MULTIPART_TYPE;
}

/** The schema of a form of `shape`, reading no body itself (see `multipart()`). */
export function formSchema<const S extends MultipartShape>(shape: S): MultipartSchema<S> {
  if (typeof shape !== 'object' || shape === null || Object.keys(shape).length === 0) {
    throw new TypeError('multipart() needs an object of fields, e.g. { avatar: file() }');
  }
  for (const [name, field] of Object.entries(shape)) {
    if (!isFileField(field) && !isStandardSchema(field)) {
      throw new TypeError(`multipart(): the field "${name}" must be file() or a Standard Schema`);
    }
  }
  const validate = (value: unknown) => validateForm(shape, value);
  const toJson = (options: StandardJSONSchemaV1.Options) => formJsonSchema(shape, options);
  return Object.freeze({
    shape,
    [MEDIA_MARKER]: { mediaType: MULTIPART_TYPE },
    '~standard': {
      version: 1,
      vendor: 'keelson',
      validate,
      jsonSchema: { input: toJson, output: toJson },
    },
  }) as unknown as MultipartSchema<S>;
}

type Result = StandardSchemaV1.Result<unknown>;

function validateForm(shape: MultipartShape, value: unknown): Result | Promise<Result> {
  if (typeof value !== 'object' || value === null) {
    return { issues: [{ message: `Expected a ${MULTIPART_TYPE} body` }] };
  }
  const form = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const issues: StandardSchemaV1.Issue[] = [];
  const pending: Promise<void>[] = [];
  for (const [name, field] of Object.entries(shape)) {
    const given = form[name];
    if (isFileField(field)) {
      if (given instanceof File) out[name] = given;
      else if (given !== undefined) issues.push({ message: 'Expected a file', path: [name] });
      else if (!field.optional) issues.push({ message: 'Required file', path: [name] });
      continue;
    }
    const take = (r: Result) => {
      if (r.issues)
        for (const i of r.issues) issues.push({ ...i, path: [name, ...(i.path ?? [])] });
      else if (r.value !== undefined) out[name] = r.value;
    };
    const r = field['~standard'].validate(given instanceof File ? undefined : given);
    if (r instanceof Promise) pending.push(r.then(take));
    else take(r);
  }
  const finish = (): Result => (issues.length ? { issues } : { value: out });
  return pending.length ? Promise.all(pending).then(finish) : finish();
}

function formJsonSchema(
  shape: MultipartShape,
  options: StandardJSONSchemaV1.Options,
): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, field] of Object.entries(shape)) {
    if (isFileField(field)) {
      properties[name] = {
        type: 'string',
        format: 'binary',
        ...(field.types?.length === 1 ? { contentMediaType: field.types[0] } : {}),
        description: `A file of at most ${field.maxBytes} bytes${field.types ? ` (${field.types.join(', ')})` : ''}.`,
      };
      if (!field.optional) required.push(name);
      continue;
    }
    const std = field['~standard'] as Schema['~standard'] & Partial<StandardJSONSchemaV1.Props>;
    // Each text field's schema is converted on its own: its `$schema` belongs to the whole form.
    const { $schema: _, ...json } = std.jsonSchema ? std.jsonSchema.input(options) : {};
    properties[name] = json;
    if (!acceptsMissing(field)) required.push(name);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

function acceptsMissing(schema: Schema): boolean {
  try {
    const r = schema['~standard'].validate(undefined);
    return !(r instanceof Promise) && !r.issues;
  } catch {
    return false;
  }
}
