import {
  type Controller,
  del,
  get,
  notFound,
  paginate,
  paginated,
  pagination,
  post,
  put,
} from 'keelson';
import { z } from 'zod';
import { __Entity__, __Entity__Input, __Entity__Params } from './schemas.js';
import type { __Entities__Store } from './store.js';

const tags = ['__name__'];

/** CRUD endpoints for __words__ records under /__name__. */
export class __Entities__Controller implements Controller {
  readonly #store: __Entities__Store;

  constructor(store: __Entities__Store) {
    this.#store = store;
  }

  routes() {
    const store = this.#store;
    const missing = (id: string) => notFound(`__words__ ${id} not found`);
    return [
      get(
        '/__name__',
        {
          query: pagination({ defaultLimit: 20, maxLimit: 100 }),
          responses: { 200: paginated(__Entity__) },
          summary: 'List __words__ records',
          operationId: 'list__Entities__',
          tags,
        },
        (c) => {
          const { items, total } = store.list(c.query.limit, c.query.offset);
          return paginate(items, total, c.query);
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
        (c) => {
          const item = store.find(c.params.id);
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
        (c) => c.created(store.create(c.body)),
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
        (c) => {
          const item = store.replace(c.params.id, c.body);
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
        (c) => {
          if (!store.remove(c.params.id)) throw missing(c.params.id);
          return c.noContent();
        },
      ),
    ];
  }
}
