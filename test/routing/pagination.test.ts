import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { PaginationOptions } from '../../src/extend/index.js';
import { get, type Page, paginate, paginated, pagination } from '../../src/index.js';
import type { CursorPage, OffsetPage } from '../../src/routing/paginated.js';
import { requestEntries, testApp } from '../app/helpers.js';
import { openApiProblems } from '../docs/valid-openapi.js';

const Article = z.object({ id: z.number(), title: z.string() }).meta({ id: 'Article' });
const ALL = Array.from({ length: 45 }, (_, i) => ({ id: i + 1, title: `t${i + 1}`, secret: 'x' }));

function articlesApp(options?: PaginationOptions<'page'>) {
  const { app } = testApp();
  app.addRoutes(
    get(
      '/articles',
      { query: pagination(options), responses: { 200: paginated(Article) } },
      (c) => {
        expectTypeOf(c.query).toEqualTypeOf<{ page: number; limit: number; offset: number }>();
        return paginate(
          ALL.slice(c.query.offset, c.query.offset + c.query.limit),
          ALL.length,
          c.query,
        );
      },
    ),
  );
  return app;
}

describe('pagination', () => {
  it('answers page 1 of 20 items by default, with the totals', async () => {
    const res = await articlesApp().inject('/articles');

    expect(res.statusCode).toBe(200);
    const body = res.json<Page<{ id: number }>>();
    expect(body).toMatchObject({ page: 1, limit: 20, total: 45, totalPages: 3 });
    expect(body.data.map((a) => a.id)).toEqual(ALL.slice(0, 20).map((a) => a.id));
  });

  it('gives the offset of the page asked for, and serializes items by their schema', async () => {
    const res = await articlesApp().inject('/articles?page=3&limit=10');

    const body = res.json<Page<Record<string, unknown>>>();
    expect(body.data.map((a) => a.id)).toEqual([21, 22, 23, 24, 25, 26, 27, 28, 29, 30]);
    expect(body.data[0]).not.toHaveProperty('secret');
    expect(body).toMatchObject({ page: 3, limit: 10, totalPages: 5 });
  });

  it.each([
    ['page 0', 'page=0', 'query.page'],
    ['a negative page', 'page=-1', 'query.page'],
    ['a page that is not a number', 'page=two', 'query.page'],
    ['a fractional page', 'page=1.5', 'query.page'],
    ['limit 0', 'limit=0', 'query.limit'],
    ['a limit above the maximum', 'limit=101', 'query.limit'],
    ['a limit that is not a number', 'limit=ten', 'query.limit'],
    ['a repeated page', 'page=1&page=2', 'query.page'],
    ['an empty limit', 'limit=', 'query.limit'],
  ])('answers 422 for %s', async (_name, qs, path) => {
    const res = await articlesApp().inject(`/articles?${qs}`);

    expect(res.statusCode).toBe(422);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json<{ errors: { path: string }[] }>().errors.map((e) => e.path)).toEqual([path]);
  });

  it('takes the default and the maximum from its options', async () => {
    const app = articlesApp({ defaultLimit: 5, maxLimit: 10 });

    expect((await app.inject('/articles')).json()).toMatchObject({ limit: 5, totalPages: 9 });
    expect((await app.inject('/articles?limit=11')).statusCode).toBe(422);
  });

  it('refuses options that make no sense when the route is built', () => {
    expect(() => pagination({ defaultLimit: 0 })).toThrow(/defaultLimit/);
    expect(() => pagination({ defaultLimit: 50, maxLimit: 10 })).toThrow(/defaultLimit/);
    expect(() => pagination({ maxLimit: 0 })).toThrow(/maxLimit/);
  });

  it('merges the route’s other query parameters, reporting issues of both', async () => {
    const { app } = testApp();
    app.addRoutes(
      get('/search', { query: pagination({}, z.object({ q: z.string().min(1) })) }, (c) => {
        expectTypeOf(c.query.q).toEqualTypeOf<string>();
        return { q: c.query.q, offset: c.query.offset };
      }),
    );

    expect((await app.inject('/search?q=x&page=2')).json()).toEqual({ q: 'x', offset: 20 });
    const bad = await app.inject('/search?page=0');
    expect(
      bad
        .json<{ errors: { path: string }[] }>()
        .errors.map((e) => e.path)
        .sort(),
    ).toEqual(['query.page', 'query.q']);
  });

  it('documents the query parameters and the page schema in OpenAPI', async () => {
    const doc = (await articlesApp().openapi()) as unknown as {
      paths: Record<
        string,
        {
          get: {
            parameters: { name: string; schema: unknown }[];
            responses: Record<string, { content: Record<string, { schema: unknown }> }>;
          };
        }
      >;
      components: { schemas: Record<string, unknown> };
    };
    const op = doc.paths['/articles']!.get;
    expect(op.parameters.map((p) => p.name).sort()).toEqual(['limit', 'page']);
    expect(op.parameters.find((p) => p.name === 'limit')?.schema).toMatchObject({
      maximum: 100,
      default: 20,
    });
    const schema = JSON.stringify(op.responses['200']!.content['application/json']!.schema);
    expect(schema).toContain('totalPages');
    expect(JSON.stringify(doc)).toContain('#/components/schemas/Article');
    expect(await openApiProblems(doc)).toEqual([]);
  });
});

function offsetApp() {
  const { app } = testApp();
  const query = pagination({ mode: 'offset', maxLimit: 50 });
  app.addRoutes(
    get('/articles', { query, responses: { 200: paginated(Article, { mode: 'offset' }) } }, (c) => {
      expectTypeOf(c.query).toEqualTypeOf<{ offset: number; limit: number }>();
      const page = ALL.slice(c.query.offset, c.query.offset + c.query.limit);
      return paginate(page, ALL.length, c.query);
    }),
  );
  return app;
}

// Keyset paging over ALL by id: the page starts after the item whose id is the cursor.
function cursorApp() {
  const { app } = testApp();
  const query = pagination({ mode: 'cursor', defaultLimit: 10 });
  app.addRoutes(
    get('/articles', { query, responses: { 200: paginated(Article, { mode: 'cursor' }) } }, (c) => {
      expectTypeOf(c.query).toEqualTypeOf<{ after: string | undefined; limit: number }>();
      const after = Number(c.query.after ?? 0);
      const rows = ALL.filter((a) => a.id > after).slice(0, c.query.limit + 1);
      return paginate(rows, c.query, (a) => String(a.id));
    }),
  );
  return app;
}

describe('pagination by offset', () => {
  it('pages a RealWorld-style ?offset=10&limit=20 from the offset asked for', async () => {
    const res = await offsetApp().inject('/articles?offset=10&limit=20');

    expect(res.statusCode).toBe(200);
    const body = res.json<OffsetPage<{ id: number }>>();
    expect(body).toMatchObject({ offset: 10, limit: 20, total: 45 });
    expect(body.data.map((a) => a.id)).toEqual(ALL.slice(10, 30).map((a) => a.id));
  });

  it('starts at 0 with the default limit, and refuses a negative offset or a page', async () => {
    const app = offsetApp();

    expect((await app.inject('/articles')).json()).toMatchObject({ offset: 0, limit: 20 });
    for (const [qs, path] of [
      ['offset=-1', 'query.offset'],
      ['offset=x', 'query.offset'],
      ['limit=51', 'query.limit'],
      ['page=2', 'query.page'],
    ]) {
      const res = await app.inject(`/articles?${qs}`);
      expect([qs, res.statusCode]).toEqual([qs, 422]);
      expect(res.json<{ errors: { path: string }[] }>().errors.map((e) => e.path)).toEqual([path]);
    }
  });

  it('documents offset and limit, and the page with its offset and total', async () => {
    const doc = JSON.stringify(await offsetApp().openapi());
    expect(doc).toContain('"name":"offset"');
    expect(doc).not.toContain('"name":"page"');
    expect(doc).not.toContain('totalPages');
    expect(await openApiProblems(JSON.parse(doc))).toEqual([]);
  });
});

describe('pagination by cursor', () => {
  it('walks the whole list by the next cursor, ending with null', async () => {
    const app = cursorApp();
    const seen: number[] = [];
    let next: string | null = null;
    for (let round = 0; round < 10; round++) {
      const url: string = next === null ? '/articles' : `/articles?after=${next}`;
      const body = (await app.inject(url)).json<CursorPage<{ id: number }>>();
      seen.push(...body.data.map((a) => a.id));
      next = body.next;
      if (next === null) break;
    }
    expect(seen).toEqual(ALL.map((a) => a.id));
    expect(next).toBeNull();
  });

  it('refuses an empty or overlong cursor, and offset or page', async () => {
    const app = cursorApp();
    for (const [qs, path] of [
      ['after=', 'query.after'],
      [`after=${'x'.repeat(513)}`, 'query.after'],
      ['after=1&after=2', 'query.after'],
      ['offset=10', 'query.offset'],
      ['page=2', 'query.page'],
    ] as const) {
      const res = await app.inject(`/articles?${qs}`);
      expect([qs.slice(0, 12), res.statusCode]).toEqual([qs.slice(0, 12), 422]);
      expect(res.json<{ errors: { path: string }[] }>().errors.map((e) => e.path)).toEqual([path]);
    }
  });
});

describe('pagination refuses the paging parameters it does not read', () => {
  it.each([
    ['offset=10', 'query.offset'],
    ['after=abc', 'query.after'],
    ['per_page=5', 'query.per_page'],
    ['cursor=abc', 'query.cursor'],
  ])('answers 422 to %s on a list paged by page, naming its parameters', async (qs, path) => {
    const res = await articlesApp().inject(`/articles?${qs}`);

    expect(res.statusCode).toBe(422);
    const issue = res.json<{ errors: { path: string; message: string }[] }>().errors[0];
    expect(issue?.path).toBe(path);
    expect(issue?.message).toContain('page and limit');
  });

  it('leaves a paging name to the route when its own query schema declares it', async () => {
    const { app } = testApp();
    const also = z.object({ cursor: z.string().optional() }).strict();
    app.addRoutes(get('/feed', { query: pagination({}, also) }, (c) => c.query));

    const res = await app.inject('/feed?cursor=abc&page=2');
    expect(res.json()).toEqual({ cursor: 'abc', page: 2, limit: 20, offset: 20 });
    const refused = await app.inject('/feed?offset=3');
    expect(refused.json<{ errors: { path: string }[] }>().errors.map((e) => e.path)).toEqual([
      'query.offset',
    ]);
  });

  it('refuses a mode it does not know when the route is built', () => {
    expect(() => pagination({ mode: 'seek' as 'page' })).toThrow(/mode must be one of/);
    expect(() => paginated(Article, { mode: 'seek' as 'page' })).toThrow(/mode must be one of/);
  });
});

describe('a paginated() answer', () => {
  it('is checked against its schema like any other: a wrong page or item is a 500, logged by field', async () => {
    const { app, lines } = testApp();
    const page = { page: 1, limit: 20, total: 1, totalPages: 1 };
    app.addRoutes(
      get('/bad-item', { responses: { 200: paginated(Article) } }, () => ({
        ...page,
        data: [{ id: 'one' as unknown as number, title: 't' }],
      })),
      get('/bad-total', { responses: { 200: paginated(Article) } }, () => ({
        ...page,
        total: '1' as unknown as number,
        data: [],
      })),
    );
    for (const [url, field] of [
      ['/bad-item', 'response.data.0.id must be number'],
      ['/bad-total', 'response.total must be integer'],
    ] as const) {
      const res = await app.inject(url);
      expect([url, res.statusCode]).toEqual([url, 500]);
      const entry = requestEntries(lines).find((e) => e.path === url);
      expect(entry?.error).toContain(field);
    }
  });
});

describe('paginate', () => {
  it('counts the pages, zero for an empty list', () => {
    expect(paginate([], 0, { page: 1, limit: 20 })).toEqual({
      data: [],
      page: 1,
      limit: 20,
      total: 0,
      totalPages: 0,
    });
    expect(paginate([1], 41, { page: 3, limit: 20 }).totalPages).toBe(3);
  });

  it('gives an offset page from an offset query, and a cursor page from a cursor query', () => {
    expect(paginate([1], 41, { offset: 40, limit: 20 })).toEqual({
      data: [1],
      offset: 40,
      limit: 20,
      total: 41,
    });
    const query = { after: undefined, limit: 2 };
    expect(paginate([1, 2, 3], query, String)).toEqual({ data: [1, 2], limit: 2, next: '2' });
    expect(paginate([1, 2], query, String)).toEqual({ data: [1, 2], limit: 2, next: null });
    expect(paginate([], query, String)).toEqual({ data: [], limit: 2, next: null });
  });
});
