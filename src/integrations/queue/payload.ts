import type { StandardSchemaV1 } from '@standard-schema/spec';
import { issuePath } from '../../standard-schema.js';

/** Thrown by `add()` and `schedule()` when a payload does not match the queue's schema. */
export class PayloadError extends Error {
  /** Each problem: the path in the payload (`payload.to`) and what is wrong there. */
  readonly issues: readonly { path: string; message: string }[];

  /** Made by the queue; lists every issue in the message. */
  constructor(queue: string, issues: readonly StandardSchemaV1.Issue[]) {
    const listed = issues.map((i) => ({ path: issuePath(i, 'payload'), message: i.message }));
    super(
      `queue "${queue}": the payload did not pass validation: ${listed.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
    );
    this.name = 'PayloadError';
    this.issues = listed;
  }
}

/** The payload as the schema outputs it, or a PayloadError. */
export async function validatePayload<S extends StandardSchemaV1>(
  queue: string,
  schema: S,
  data: unknown,
): Promise<StandardSchemaV1.InferOutput<S>> {
  const result = await schema['~standard'].validate(data);
  if (result.issues) throw new PayloadError(queue, result.issues);
  return result.value as StandardSchemaV1.InferOutput<S>;
}
