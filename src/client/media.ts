/**
 * What travels as another media type than JSON, for the typed client: multipart bodies (files
 * as `Blob`s, or a `FormData`), and answers decoded by their media type.
 * @module
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { FileField, MultipartShape } from '../uploads/schema.js';

type OutputOf<S> = S extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<S> : unknown;
type InputOf<S> = S extends StandardSchemaV1 ? StandardSchemaV1.InferInput<S> : unknown;

type FileKeys<S> = { [K in keyof S]: S[K] extends FileField ? K : never }[keyof S];
type RequiredFields<S> = {
  [K in keyof S]: S[K] extends FileField<infer O>
    ? O extends true
      ? never
      : K
    : undefined extends InputOf<S[K]>
      ? never
      : K;
}[keyof S];
type FieldValue<F> = F extends FileField ? Blob : InputOf<F> | string;

/**
 * The body of a `multipart()` route as the client sends it: a `Blob` (or `File`) per file field
 * and a value per text field, or a `FormData`. A form with no file field is sent as a `FormData`:
 * the client tells a form from JSON by the files in it.
 */
export type MultipartBody<S extends MultipartShape> = [FileKeys<S>] extends [never]
  ? FormData
  :
      | FormData
      | ({ [K in RequiredFields<S>]: FieldValue<S[K]> } & {
          [K in Exclude<keyof S, RequiredFields<S>>]?: FieldValue<S[K]>;
        });

/** The body a route's body schema takes from the client: a multipart form or its JSON input. */
export type BodyInput<B> = B extends { readonly shape: infer S extends MultipartShape } & {
  readonly '~keelson': unknown;
}
  ? MultipartBody<S>
  : InputOf<B>;

/** What a success answer of media type `T` is decoded to, `Json` being its JSON value. */
export type Decoded<T extends string, Json> = T extends
  | 'application/json'
  | `application/json;${string}`
  | `${string}+json`
  | `${string}+json;${string}`
  ? Json
  : T extends 'text/event-stream'
    ? ReadableStream<Uint8Array>
    : T extends `text/${string}`
      ? string
      : Blob;

type Marked = { readonly '~keelson': { readonly mediaType: string } };

/**
 * The data of a success answer of schema `S` on a route whose success media type is `Media`:
 * the schema's own media type first (its `'~keelson'` marker, when its type names one), else
 * the route's `media.responses`; JSON when neither says otherwise. A marker whose type is only
 * `string` (as `eventStream()`'s is) says nothing the type can use: `unknown`.
 */
export type AnswerOf<S, Media> = S extends Marked
  ? S['~keelson']['mediaType'] extends infer T extends string
    ? string extends T
      ? unknown
      : Decoded<T, OutputOf<S>>
    : unknown
  : ByRouteMedia<Media, OutputOf<S>>;

/** The media types `media.responses` names: one, a list, or a list per status (all of them). */
type Named<M> = M extends string
  ? M
  : M extends readonly (infer E extends string)[]
    ? E
    : M extends Readonly<Record<number, infer V>>
      ? Named<V>
      : never;

/** The data of an answer by the route's `media.responses` alone. */
export type ByRouteMedia<Media, Json> = [Named<Media>] extends [never]
  ? Json
  : string extends Named<Media>
    ? Json
    : Decoded<Named<Media>, Json>;
