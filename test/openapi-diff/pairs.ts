/**
 * The table of pairs: a base document, a changed one, Keelson's expected verdict and codes, and
 * the verdict Atlassian's openapi-diff gives on the same pair (converted to OpenAPI 3.0).
 * @module
 */
import type { ChangeCode } from '../../src/openapi-diff/index.js';
import { baseDocument, changed, type Doc } from './documents.js';

/** A verdict over a whole pair. */
export type Verdict = 'breaking' | 'non-breaking' | 'none';

/** One row of the table. */
export interface Pair {
  /** What changed, in words. */
  readonly name: string;
  /** The base document (the plain base unless the pair needs more in it). */
  readonly base: Doc;
  /** The changed document. */
  readonly current: Doc;
  /** Keelson's verdict. */
  readonly keelson: Verdict;
  /** The codes of every change Keelson lists, in order. */
  readonly codes: readonly ChangeCode[];
  /** openapi-diff 0.24's verdict ('unclassified' when it only finds unclassified changes). */
  readonly openapiDiff: Verdict | 'unclassified';
}

const S = (doc: Doc) => doc.components.schemas;
const GET = (doc: Doc) => doc.paths['/users/{id}'].get;
const POST = (doc: Doc) => doc.paths['/users'].post;
const withCsv = (doc: Doc) => {
  GET(doc).responses[200].content['text/csv'] = { schema: { type: 'string' } };
};
const renamePath = (doc: Doc) => {
  doc.paths['/users/{userId}'] = doc.paths['/users/{id}'];
  delete doc.paths['/users/{id}'];
  doc.paths['/users/{userId}'].get.parameters[0].name = 'userId';
};
const renameUser = (doc: Doc) => {
  S(doc).Account = S(doc).User;
  delete S(doc).User;
  const ref = { $ref: '#/components/schemas/Account' };
  POST(doc).responses[201].content['application/json'].schema = ref;
  GET(doc).responses[200].content['application/json'].schema = ref;
};
const toForm = (doc: Doc) => {
  const content = POST(doc).requestBody.content;
  content['application/x-www-form-urlencoded'] = content['application/json'];
  delete content['application/json'];
};
const statusTo200 = (doc: Doc) => {
  POST(doc).responses[200] = POST(doc).responses[201];
  delete POST(doc).responses[201];
};
const query = (name: string, required: boolean) => ({
  name,
  in: 'query',
  required,
  schema: { type: 'string' },
});
const deleteOp = { operationId: 'deleteUser', responses: { 204: { description: 'No Content' } } };

// biome-ignore format: one pair per line reads as a table.
/** The pairs, each one kind of change. Response changes to `User` count twice: two operations return it. */
export const PAIRS: readonly Pair[] = [
  row('nothing changed', () => {}, 'none', [], 'none'),
  row('operation removed', (d) => delete d.paths['/users/{id}'], 'breaking', ['operation-removed'], 'breaking'),
  row('operation added', (d) => { d.paths['/users/{id}'].delete = deleteOp; }, 'non-breaking', ['operation-added'], 'non-breaking'),
  row('success status changed 201 → 200', statusTo200, 'breaking', ['response-removed', 'response-added'], 'breaking'),
  row('error status removed, still covered by 4XX', (d) => delete GET(d).responses[404], 'non-breaking', ['response-removed'], 'breaking'),
  row('error status added', (d) => { POST(d).responses[409] = POST(d).responses['4XX']; }, 'non-breaking', ['response-added'], 'non-breaking'),
  row('required query parameter added', (d) => GET(d).parameters.push(query('tenant', true)), 'breaking', ['parameter-added'], 'none'),
  row('optional query parameter added', (d) => GET(d).parameters.push(query('lang', false)), 'non-breaking', ['parameter-added'], 'none'),
  row('query parameter made required', (d) => { GET(d).parameters[1].required = true; }, 'breaking', ['parameter-required'], 'none'),
  row('query parameter removed', (d) => GET(d).parameters.pop(), 'non-breaking', ['parameter-removed'], 'none'),
  row('query parameter type changed string → integer', (d) => { GET(d).parameters[1].schema = { type: 'integer' }; }, 'breaking', ['type-changed'], 'none'),
  row('path parameter renamed {id} → {userId}', renamePath, 'none', [], 'none'),
  row('required request field added', (d) => { S(d).NewUser.properties.email = { type: 'string' }; S(d).NewUser.required.push('email'); }, 'breaking', ['property-added'], 'breaking'),
  row('optional request field added', (d) => { S(d).NewUser.properties.email = { type: 'string' }; }, 'non-breaking', ['property-added'], 'breaking'),
  row('request field made required', (d) => S(d).NewUser.required.push('nickname'), 'breaking', ['property-required'], 'breaking'),
  row('request field made optional', (d) => { S(d).NewUser.required = ['name']; }, 'non-breaking', ['property-optional'], 'non-breaking'),
  row('request field removed (object open)', (d) => delete S(d).NewUser.properties.nickname, 'non-breaking', ['property-removed'], 'non-breaking'),
  row('request field type changed string → integer', (d) => { S(d).NewUser.properties.name = { type: 'integer' }; }, 'breaking', ['type-changed'], 'breaking'),
  row('request field made nullable', (d) => { S(d).NewUser.properties.nickname.type = ['string', 'null']; }, 'non-breaking', ['type-widened'], 'none'),
  row('request maxLength lowered 50 → 20', (d) => { S(d).NewUser.properties.name.maxLength = 20; }, 'breaking', ['constraint-narrowed'], 'breaking'),
  row('request enum value removed', (d) => { S(d).NewUser.properties.role.enum = ['user']; }, 'breaking', ['enum-value-removed'], 'none'),
  row('request enum value added', (d) => S(d).NewUser.properties.role.enum.push('guest'), 'non-breaking', ['enum-value-added'], 'none'),
  row('response field removed', (d) => delete S(d).User.properties.nickname, 'breaking', ['property-removed', 'property-removed'], 'non-breaking'),
  row('response field made optional', (d) => { S(d).User.required = ['id', 'name', 'tags']; }, 'breaking', ['property-optional', 'property-optional'], 'breaking'),
  row('response field added', (d) => { S(d).User.properties.email = { type: 'string' }; }, 'non-breaking', ['property-added', 'property-added'], 'breaking'),
  row('response field made required', (d) => S(d).User.required.push('nickname'), 'non-breaking', ['property-required', 'property-required'], 'non-breaking'),
  row('response enum value added', (d) => S(d).User.properties.role.enum.push('guest'), 'breaking', ['enum-value-added', 'enum-value-added'], 'none'),
  row('response enum value removed', (d) => { S(d).User.properties.role.enum = ['user']; }, 'non-breaking', ['enum-value-removed', 'enum-value-removed'], 'none'),
  row('response field made nullable', (d) => { S(d).User.properties.nickname.type = ['string', 'null']; }, 'breaking', ['type-widened', 'type-widened'], 'none'),
  row('response array items type changed', (d) => { S(d).User.properties.tags.items = { type: 'integer' }; }, 'breaking', ['type-changed', 'type-changed'], 'breaking'),
  row('request media type changed JSON → form', toForm, 'breaking', ['media-type-removed', 'media-type-added'], 'non-breaking'),
  row('response media type added', withCsv, 'non-breaking', ['media-type-added'], 'none'),
  { ...row('response media type removed', () => {}, 'breaking', ['media-type-removed'], 'none'), base: changed(withCsv) },
  row('response header removed', (d) => delete POST(d).responses[201].headers, 'breaking', ['header-removed'], 'non-breaking'),
  row('request body made optional', (d) => { POST(d).requestBody.required = false; }, 'non-breaking', ['body-optional'], 'none'),
  row('component renamed User → Account, same schema', renameUser, 'none', [], 'none'),
];

function row(
  name: string,
  change: (doc: Doc) => unknown,
  keelson: Verdict,
  codes: readonly ChangeCode[],
  openapiDiff: Verdict | 'unclassified',
): Pair {
  const current = changed((doc) => void change(doc));
  return { name, base: baseDocument(), current, keelson, codes, openapiDiff };
}
