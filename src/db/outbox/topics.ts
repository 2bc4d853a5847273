/**
 * Typed topics: a schema per topic checks what is published and what a subscriber receives.
 * @module
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { issuePath } from '../../standard-schema.js';
import type { Delivery, PublishOptions, SubscribeOptions, SubscriberHandler } from './types.js';

/** A schema (zod, valibot, …) per topic name. */
export type TopicSchemas = Record<string, StandardSchemaV1>;

/** `publish` and `subscribe` typed by a map of topic schemas. */
export interface Topics<M extends TopicSchemas> {
  /** Validates `payload` against the topic's schema, then publishes it (inside a transaction). */
  publish<T extends keyof M & string>(
    topic: T,
    payload: StandardSchemaV1.InferInput<M[T]>,
    options?: PublishOptions,
  ): Promise<string>;
  /** Subscribes with the payload validated and typed; an invalid one fails its delivery. */
  subscribe<T extends keyof M & string>(
    topic: T,
    handler: (delivery: Delivery<StandardSchemaV1.InferOutput<M[T]>>) => Promise<void> | void,
    options?: SubscribeOptions,
  ): void;
}

/** What typed topics need of the database. */
interface Publisher {
  publish(topic: string, payload: unknown, options?: PublishOptions): Promise<string>;
  subscribe(topic: string, handler: SubscriberHandler, options?: SubscribeOptions): unknown;
}

/** Thrown when a payload does not match its topic's schema; lists each issue. */
export class TopicPayloadError extends Error {
  override readonly name = 'TopicPayloadError';
  /** Each problem: where in the payload, and what is wrong there. */
  readonly issues: readonly { path: string; message: string }[];

  /** Made by typed topics. */
  constructor(topic: string, issues: readonly StandardSchemaV1.Issue[]) {
    const listed = issues.map((i) => ({ path: issuePath(i, 'payload'), message: i.message }));
    super(
      `topic "${topic}": the payload did not pass validation: ${listed.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
    );
    this.issues = listed;
  }
}

async function validate(topic: string, schema: StandardSchemaV1, value: unknown): Promise<unknown> {
  const result = await schema['~standard'].validate(value);
  if (result.issues) throw new TopicPayloadError(topic, result.issues);
  return result.value;
}

/** Typed topics over `db`. */
export function typedTopics<M extends TopicSchemas>(db: Publisher, schemas: M): Topics<M> {
  const schemaOf = (topic: string): StandardSchemaV1 => {
    const schema = Object.hasOwn(schemas, topic) ? schemas[topic] : undefined;
    if (!schema)
      throw new TypeError(`topic "${topic}" is not one of ${Object.keys(schemas).join(', ')}`);
    return schema;
  };
  return {
    async publish(topic, payload, options) {
      return db.publish(topic, await validate(topic, schemaOf(topic), payload), options);
    },
    subscribe(topic, handler, options) {
      const schema = schemaOf(topic);
      const name = options?.name ?? handler.name;
      db.subscribe(
        topic,
        async (delivery) => {
          const payload = await validate(topic, schema, delivery.event.payload);
          await handler({ ...delivery, event: { ...delivery.event, payload } } as never);
        },
        { ...options, ...(name ? { name } : {}) },
      );
    },
  };
}
