// How long buildOpenApi takes for 1,000 routes. Each run builds fresh Zod schemas and a fresh
// route table, then times only the document build. `npx tsx bench/openapi.ts [runs]`
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { resolveConfig } from '../src/config/index.js';
import { buildOpenApi } from '../src/docs/openapi.js';
import { del, get, post, put } from '../src/routing/builders.js';
import { RouteTable } from '../src/routing/table.js';
import type { RouteDef } from '../src/routing/types.js';

const RESOURCES = 250; // four routes each
const runs = Number(process.argv[2] ?? 15);

function routesOf(i: number, Owner: z.ZodType): RouteDef[] {
  const Item = z
    .object({
      id: z.number().int(),
      name: z.string().min(1).max(100),
      status: z.enum(['draft', 'live', 'archived']),
      tags: z.array(z.string()),
      owner: Owner,
      updatedAt: z.iso.datetime(),
      note: z.string().nullable(),
    })
    .meta({ id: `Item${i}` });
  const NewItem = Item.omit({ id: true, updatedAt: true });
  const Id = z.object({ id: z.coerce.number().int().positive() });
  const base = `/resources${i}`;
  return [
    get(
      base,
      {
        query: z.object({
          limit: z.coerce.number().int().min(1).max(100).default(20),
          cursor: z.string().optional(),
          status: z.enum(['draft', 'live', 'archived']).optional(),
        }),
        responses: { 200: z.object({ items: z.array(Item), next: z.string().nullable() }) },
        summary: `List resource ${i}`,
        tags: [`group${i % 10}`],
      },
      () => ({ items: [], next: null }),
    ),
    post(base, { body: NewItem, responses: { 201: Item }, errors: [409] }, () => {
      throw new Error('not called');
    }),
    put(
      `${base}/:id`,
      { params: Id, body: NewItem, responses: { 200: Item }, errors: [404] },
      () => {
        throw new Error('not called');
      },
    ),
    del(`${base}/:id`, { params: Id, responses: { 204: z.null() }, errors: [404] }, (c) =>
      c.noContent(),
    ),
  ];
}

function table(): RouteTable {
  const Owner = z.object({ id: z.number(), email: z.email() }).meta({ id: 'Owner' });
  const t = new RouteTable();
  const root = { prefix: '', middleware: [], parent: undefined };
  for (let i = 0; i < RESOURCES; i++) for (const r of routesOf(i, Owner)) t.add(r, root, 'bench');
  return t;
}

/** Converts every schema of the table the way the builder does, once per schema and side. */
function convertAll(t: RouteTable): void {
  const seen = { input: new Set<object>(), output: new Set<object>() };
  const convert = (schema: unknown, side: 'input' | 'output') => {
    if (!schema || seen[side].has(schema as object)) return;
    seen[side].add(schema as object);
    const std = (schema as { '~standard': { jsonSchema: Record<string, (o: object) => unknown> } })[
      '~standard'
    ];
    std.jsonSchema[side]!({ target: 'draft-2020-12' });
  };
  for (const { def } of t.entries) {
    const o = def.options;
    for (const part of [o.params, o.query, o.headers, o.body]) convert(part, 'input');
    for (const [status, schema] of Object.entries(o.responses ?? {})) {
      if (status !== '204') convert(schema, 'output');
    }
  }
}

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const config = resolveConfig({ serviceName: 'bench', docs: { title: 'Bench' } });
const builds: number[] = [];
const conversions: number[] = [];
let operations = 0;
let bytes = 0;
for (let run = 0; run < runs; run++) {
  const t = table();
  let start = performance.now();
  const doc = buildOpenApi(config, t.entries);
  builds.push(performance.now() - start);
  const fresh = table();
  start = performance.now();
  convertAll(fresh);
  conversions.push(performance.now() - start);
  operations = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
  bytes = JSON.stringify(doc).length;
}
const ms = (x: number) => `${x.toFixed(1)} ms`;
console.log(`${operations} operations, ${Math.round(bytes / 1024)} KiB of JSON, ${runs} runs`);
console.log(
  `buildOpenApi: median ${ms(median(builds))}, min ${ms(Math.min(...builds))}, max ${ms(Math.max(...builds))}`,
);
console.log(
  `of which Zod's converters alone: median ${ms(median(conversions))}, min ${ms(Math.min(...conversions))}`,
);
