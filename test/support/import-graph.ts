// The import graph of src/, read from the source text: every relative import, export-from and
// import() with a literal specifier, type-only imports included and marked (a type import still
// ties two folders together, though it loads nothing). Used by test/layout.test.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

/** One import: the importing file and the imported file, both relative to the repository root. */
export interface ImportEdge {
  readonly from: string;
  readonly to: string;
  /** Present on an `import type` / `export type` statement: erased at build, it loads nothing. */
  readonly typeOnly?: true;
}

const SPECIFIER =
  /(?:^|[\s;}])(?:import|export)\s(type\s)?(?:[^'";]*?\sfrom\s)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** Every `.ts` file under `dir` (relative to `root`), sorted. */
export function sourceFiles(root: string, dir: string): string[] {
  const found: string[] = [];
  const walk = (at: string): void => {
    for (const entry of readdirSync(join(root, at), { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) found.push(path);
    }
  };
  walk(dir);
  return found.sort();
}

/** The relative imports of every source file under `dir`, resolved to repository paths. */
export function importEdges(root: string, dir: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const from of sourceFiles(root, dir)) {
    const text = readFileSync(join(root, from), 'utf8');
    for (const m of text.matchAll(SPECIFIER)) {
      const spec = (m[2] ?? m[3])!;
      const to = normalize(join(dirname(from), spec)).replace(/\.js$/, '.ts');
      edges.push(m[1] === undefined ? { from, to } : { from, to, typeOnly: true });
    }
  }
  return edges;
}

/** The import cycles among `edges`, each as the list of files around it (one per strongly connected group). */
export function cyclesOf(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    const list = next.get(from) ?? [];
    list.push(to);
    next.set(from, list);
  }
  // Tarjan's strongly connected components, iterative so a deep graph cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  let counter = 0;
  for (const start of next.keys()) {
    if (index.has(start)) continue;
    const work: Array<[string, number]> = [[start, 0]];
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const [node, i] = top;
      if (i === 0) {
        index.set(node, counter);
        low.set(node, counter++);
        stack.push(node);
        onStack.add(node);
      }
      const targets = next.get(node) ?? [];
      if (i < targets.length) {
        top[1]++;
        const to = targets[i]!;
        if (!index.has(to)) work.push([to, 0]);
        else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent[0], Math.min(low.get(parent[0])!, low.get(node)!));
      if (low.get(node) === index.get(node)) {
        const group: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          group.push(member);
        } while (member !== node);
        const selfLoop = (next.get(node) ?? []).includes(node);
        if (group.length > 1 || selfLoop) groups.push(group.sort());
      }
    }
  }
  return groups;
}

/** `path` relative to `base`, with forward slashes. */
export function under(base: string, path: string): string {
  return relative(base, path).split('\\').join('/');
}
