/**
 * The base document of the pairs: a small users API as Keelson writes it, and a way to change
 * a copy of it.
 * @module
 */

/** A document as plain JSON, loose enough to change in a pair. */
// biome-ignore lint/suspicious/noExplicitAny: the pairs reach anywhere into plain JSON.
export type Doc = Record<string, any>;

const problem = {
  description: 'Any other client error.',
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
};
const json = (schema: object) => ({ 'application/json': { schema } });

/** A fresh copy of the base document. */
export function baseDocument(): Doc {
  return {
    openapi: '3.1.0',
    info: { title: 'Users', version: '1.0.0' },
    paths: {
      '/users': {
        post: {
          operationId: 'createUser',
          requestBody: { required: true, content: json({ $ref: '#/components/schemas/NewUser' }) },
          responses: {
            201: {
              description: 'Created',
              headers: { Location: { description: 'Where it is', schema: { type: 'string' } } },
              content: json({ $ref: '#/components/schemas/User' }),
            },
            '4XX': problem,
          },
        },
      },
      '/users/{id}': {
        get: {
          operationId: 'getUser',
          parameters: [
            { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
            { name: 'fields', in: 'query', required: false, schema: { type: 'string' } },
          ],
          responses: {
            200: { description: 'OK', content: json({ $ref: '#/components/schemas/User' }) },
            404: problem,
            '4XX': problem,
          },
        },
      },
    },
    components: {
      schemas: {
        NewUser: {
          type: 'object',
          properties: {
            name: { type: 'string', maxLength: 50 },
            role: { type: 'string', enum: ['admin', 'user'] },
            nickname: { type: 'string' },
          },
          required: ['name', 'role'],
        },
        User: {
          type: 'object',
          properties: {
            id: { type: 'integer' },
            name: { type: 'string', maxLength: 50 },
            role: { type: 'string', enum: ['admin', 'user'] },
            nickname: { type: 'string' },
            tags: { type: 'array', items: { type: 'string' } },
          },
          required: ['id', 'name', 'role', 'tags'],
          additionalProperties: false,
        },
        Problem: {
          type: 'object',
          properties: { type: { type: 'string' }, title: { type: 'string' } },
          required: ['type', 'title'],
        },
      },
    },
  };
}

/** The base document changed by `change`. */
export function changed(change: (doc: Doc) => void): Doc {
  const doc = baseDocument();
  change(doc);
  return doc;
}
