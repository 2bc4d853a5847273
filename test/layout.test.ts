// The layout rules of src/ (CONTRIBUTING.md, "Code map"), checked on the import graph read from
// the source: no cycles, routing below the engine, and a core that never imports a feature or an
// adapter. Type-only imports count everywhere but in one place: the core may name a feature's
// types (an option type in a public signature: `AppOptions.cookies`, `c.setCookie(name, value,
// options)`), never load its code; those type-only ties are listed by name (TYPE_TIES).
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cyclesOf, type ImportEdge, importEdges } from './support/import-graph.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const edges = importEdges(root, 'src');

/** The core: the App, the engine and the answer path, routing, and what both read off a request. */
const CORE = [
  'src/app.ts',
  'src/app-engine.ts',
  'src/app-options.ts',
  'src/app-features.ts',
  'src/engine/',
  'src/routing/',
  'src/request/',
];

/** User features: each in its own folder, wired by the user or through an extension point. */
const FEATURES = [
  'src/cookies/',
  'src/uploads/',
  'src/sse/',
  'src/websocket/',
  'src/compress/',
  'src/rate-limit/',
  'src/static/',
  'src/idempotency/',
  'src/auth/',
];

/** Adapters to other software and the tools around an app: the core knows none of them. */
const ADAPTERS = ['src/integrations/', 'src/db/', 'src/client/', 'src/testing/', 'src/cli/'];

/** A rule: no file under any of `from` imports a file under any of `to`. */
interface Rule {
  readonly name: string;
  readonly from: readonly string[];
  readonly to: readonly string[];
  /** Type-only imports are let through (TYPE_TIES holds those of the core to the features). */
  readonly valuesOnly?: true;
}

const RULES: readonly Rule[] = [
  { name: 'routing does not import the engine', from: ['src/routing/'], to: ['src/engine/'] },
  {
    name: 'what a request carries imports neither routing nor the engine',
    from: ['src/request/'],
    to: ['src/routing/', 'src/engine/'],
  },
  {
    name: 'routing and the engine do not import the App',
    from: ['src/routing/', 'src/engine/', 'src/request/'],
    to: ['src/app.ts', 'src/app-engine.ts', 'src/app-options.ts', 'src/index.ts'],
  },
  { name: 'the core loads no feature', from: CORE, to: FEATURES, valuesOnly: true },
  { name: 'the core imports no adapter', from: CORE, to: ADAPTERS },
  {
    name: 'nothing in src imports the root entry or keelson/extend',
    from: ['src/'],
    to: ['src/index.ts', 'src/extend/index.ts'],
  },
];

/**
 * The core's type-only imports of a feature, each `importing file -> feature folder`: the types
 * its public API names. The core reaches the features' code through the tables of
 * `app-features.ts` and `routing/context-features.ts`, which `src/features.ts` fills. The list
 * only shrinks: a tie that is gone must leave it, so it stays the exact account.
 */
const TYPE_TIES: ReadonlySet<string> = new Set([
  // CookieOptions, ServerSentEvent, SseOptions: c.setCookie(), c.sse() and their table.
  'src/routing/context.ts -> src/cookies/',
  'src/routing/context.ts -> src/sse/',
  'src/routing/context-features.ts -> src/cookies/',
  'src/routing/context-features.ts -> src/sse/',
  // CookiesOptions, CompressOptions: AppOptions.cookies and .compress.
  'src/app-options.ts -> src/compress/',
  'src/app-options.ts -> src/cookies/',
  // StaticOptions: app.static(prefix, dir, options), and the mounts the App keeps.
  'src/app.ts -> src/static/',
  'src/app-engine.ts -> src/static/',
  'src/app-features.ts -> src/static/',
]);

const within = (path: string, places: readonly string[]): string | undefined =>
  places.find((p) => (p.endsWith('/') ? path.startsWith(p) : path === p));

/** Each edge that breaks `rule`, as `from -> to-place (file)`. */
function breaches(
  rule: Rule,
  all: readonly ImportEdge[],
): Array<{ key: string; edge: ImportEdge }> {
  const found: Array<{ key: string; edge: ImportEdge }> = [];
  for (const edge of all) {
    if (!within(edge.from, rule.from) || (rule.valuesOnly && edge.typeOnly)) continue;
    const place = within(edge.to, rule.to);
    if (place && !within(edge.from, [place])) found.push({ key: `${edge.from} -> ${place}`, edge });
  }
  return found;
}

describe('the layout of src/', () => {
  it('reads a graph of the whole tree', () => {
    // A broken reader would pass every rule below: the graph must hold the known edges.
    expect(edges.length).toBeGreaterThan(300);
    expect(edges).toContainEqual({ from: 'src/engine/engine.ts', to: 'src/routing/mount.ts' });
  });

  it('has no import cycle', () => {
    expect(cyclesOf(edges)).toEqual([]);
  });

  for (const rule of RULES) {
    it(rule.name, () => {
      const wrong = breaches(rule, edges).map((b) => `${b.edge.from} imports ${b.edge.to}`);
      expect(wrong).toEqual([]);
    });
  }

  it("lists exactly the core's type-only imports of a feature", () => {
    const rule = { name: 'type-only ties', from: CORE, to: FEATURES };
    const typeOnly = edges.filter((e) => e.typeOnly);
    const present = new Set(breaches(rule, typeOnly).map((b) => b.key));
    expect([...present].sort()).toEqual([...TYPE_TIES].sort());
  });

  it('tells a type-only import from one that loads code', () => {
    expect(edges).toContainEqual({
      from: 'src/app-options.ts',
      to: 'src/cookies/index.ts',
      typeOnly: true,
    });
    expect(edges).toContainEqual({ from: 'src/features.ts', to: 'src/cookies/index.ts' });
  });
});

describe('the cycle finder', () => {
  it('finds a cycle of two files and a file importing itself, and none in a chain', () => {
    const cycles = cyclesOf([
      { from: 'a', to: 'b' },
      { from: 'b', to: 'a' },
      { from: 'c', to: 'c' },
      { from: 'd', to: 'e' },
    ]);
    expect(cycles).toEqual([['a', 'b'], ['c']]);
  });
});
