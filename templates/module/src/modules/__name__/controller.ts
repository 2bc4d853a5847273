import { type Controller, del, get, notFound, post, put } from 'keelson';
import { z } from 'zod';
import type { __Entities__Repository } from './repository.js';
import {
  __Entity__,
  __Entity__Input,
  __Entity__Page,
  __Entity__PageQuery,
  __Entity__Params,
} from './schemas.js';

const tags = ['__name__'];

/** CRUD endpoints for __words__ records under /__name__. */
export class __Entities__Controller implements Controller {
  readonly #repository: __Entities__Repository;

  constructor(repository: __Entities__Repository) {
    this.#repository = repository;
  }

  routes() {
    const repository = this.#repository;
    const missing = (id: number) => notFound(`__words__ ${id} not found`);
    return [
      get(
        '/__name__',
        {
          query: __Entity__PageQuery,
          responses: { 200: __Entity__Page },
          summary: 'List __words__ records, a page after the cursor `after`',
          operationId: 'list__Entities__',
          tags,
        },
        async (c) => {
          const { items, next } = await repository.list(c.query.limit, c.query.after);
          return { data: items, next };
        },
      ),
      get(
        '/__name__/:id',
        {
          params: __Entity__Params,
          responses: { 200: __Entity__ },
          errors: [404],
          summary: 'Get a __words__',
          operationId: 'get__Entity__',
          tags,
        },
        async (c) => {
          const item = await repository.find(c.params.id);
          if (!item) throw missing(c.params.id);
          return item;
        },
      ),
      post(
        '/__name__',
        {
          body: __Entity__Input,
          responses: { 201: __Entity__ },
          summary: 'Create a __words__',
          operationId: 'create__Entity__',
          tags,
        },
        async (c) => c.created(await repository.create(c.body)),
      ),
      put(
        '/__name__/:id',
        {
          params: __Entity__Params,
          body: __Entity__Input,
          responses: { 200: __Entity__ },
          errors: [404],
          summary: 'Replace a __words__',
          operationId: 'replace__Entity__',
          tags,
        },
        async (c) => {
          const item = await repository.replace(c.params.id, c.body);
          if (!item) throw missing(c.params.id);
          return item;
        },
      ),
      del(
        '/__name__/:id',
        {
          params: __Entity__Params,
          responses: { 204: z.null() },
          errors: [404],
          summary: 'Delete a __words__',
          operationId: 'delete__Entity__',
          tags,
        },
        async (c) => {
          if (!(await repository.remove(c.params.id))) throw missing(c.params.id);
          return c.noContent();
        },
      ),
    ];
  }
}
