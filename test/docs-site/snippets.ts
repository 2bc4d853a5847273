/**
 * The TypeScript blocks of the README and of the docs pages, as modules a compiler can check:
 * each ```ts block is one module importing from 'keelson' and its subpaths (mapped to src/).
 *
 * A page may declare, once, what its fragments take from around them (an app, a database):
 *
 *     <!-- snippet-prelude
 *     declare const app: import('keelson').App;
 *     -->
 *
 * One declaration a line; a block that declares or imports the same name itself drops that line.
 * A block whose info string is `ts run` is also run, and must exit 0.
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The repository's root folder. */
export const ROOT = new URL('../../', import.meta.url).pathname;

/** One ```ts block of a page. */
export interface Snippet {
  /** The page, relative to the repository root: `docs/guide/routing.md`. */
  readonly page: string;
  /** The line of the opening fence, 1-based. */
  readonly line: number;
  /** The block as shown. */
  readonly code: string;
  /** Marked `ts run`: run as well as checked. */
  readonly run: boolean;
  /** The module the compiler sees: the prelude lines the block needs, then the block. */
  readonly module: string;
}

/** The Markdown pages whose blocks are checked: the README and docs/, generated pages left out. */
export function pages(): string[] {
  const found = ['README.md'];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name === 'api' || entry.name.startsWith('.')) continue;
        walk(path);
      } else if (entry.name.endsWith('.md')) found.push(path);
    }
  };
  walk('docs');
  return found.sort();
}

const FENCE = /^([ \t]*)(`{3,})(ts|typescript)(?:[ \t]+([^\n]*))?\n([\s\S]*?)^\1\2[ \t]*$/gm;
const PRELUDE = /<!--\s*snippet-prelude\n([\s\S]*?)-->/;

/** Names a block declares or imports at its top level (roughly: enough to drop prelude lines). */
function ownNames(code: string): Set<string> {
  const names = new Set<string>();
  for (const m of code.matchAll(/\b(?:const|let|var|function\*?|class|type|interface)\s+(\w+)/g)) {
    names.add(m[1]!);
  }
  for (const m of code.matchAll(/^import\s+(?:type\s+)?([\s\S]*?)\s+from\s/gm)) {
    for (const part of m[1]!.replace(/[{}]/g, ',').split(',')) {
      const local = part
        .trim()
        .replace(/^type\s+/, '')
        .replace(/^\*\s+as\s+/, '')
        .split(/\s+as\s+/)
        .pop();
      if (local) names.add(local);
    }
  }
  return names;
}

/** The name a prelude line declares: `declare const app: …` → `app`. */
function declaredBy(line: string): string | undefined {
  return /\b(?:const|let|function|class|type|interface)\s+(\w+)/.exec(line)?.[1];
}

/** The ```ts blocks of one page's Markdown. */
export function snippetsOf(page: string, markdown: string): Snippet[] {
  const prelude = (PRELUDE.exec(markdown)?.[1] ?? '').split('\n').filter((l) => l.trim() !== '');
  const out: Snippet[] = [];
  for (const m of markdown.matchAll(FENCE)) {
    const indent = m[1]!.length;
    const code = m[5]!
      .split('\n')
      .map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)))
      .join('\n');
    const own = ownNames(code);
    const needed = prelude.filter((l) => {
      const name = declaredBy(l);
      return name === undefined || !own.has(name);
    });
    const line = markdown.slice(0, m.index).split('\n').length;
    // The imports go first (a prelude line may not precede them in meaning, only in text),
    // and `export {}` makes a block without imports a module of its own.
    out.push({
      page,
      line,
      code,
      run: /(^|\s)run(\s|$)/.test(m[4] ?? ''),
      module: `${code}\n${needed.join('\n')}\nexport {};\n`,
    });
  }
  return out;
}

/** Every block of every page. */
export function allSnippets(): Snippet[] {
  return pages().flatMap((page) => snippetsOf(page, readFileSync(join(ROOT, page), 'utf8')));
}

/** `docs/guide/routing.md:42` for a snippet. */
export function where(s: Snippet): string {
  return `${s.page}:${s.line}`;
}

/** The compiler paths that make 'keelson' and 'keelson/<subpath>' the sources under src/. */
export function keelsonPaths(): Record<string, string[]> {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, { default?: string } | string>;
  };
  const paths: Record<string, string[]> = {};
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const built = typeof target === 'string' ? target : target.default;
    if (!built?.startsWith('./dist/') || !built.endsWith('.js')) continue;
    const source = built.replace('./dist/', './src/').replace(/\.js$/, '.ts');
    const name = subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`;
    paths[name] = [join(ROOT, source)];
  }
  return paths;
}

/** A path relative to the root, for messages. */
export function fromRoot(path: string): string {
  return relative(ROOT, path);
}
