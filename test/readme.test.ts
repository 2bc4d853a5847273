import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pages } from './docs-site/snippets.js';

// The README is the front page: short, with the two commands, and links into docs/ that work on
// GitHub. Its TypeScript snippets and the docs' that import anything are meant to be copied: each
// must import the Keelson names it uses, from the entry that exports them (the docs' snippet
// test compiles them; this names a name a page's prelude would otherwise hide).

const root = new URL('../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

/** Each package entry (`keelson`, `keelson/auth`, …) and the names its source exports. */
function entryExports(): Map<string, Set<string>> {
  const pkg = JSON.parse(read('package.json')) as {
    name: string;
    exports: Record<string, { default?: string }>;
  };
  const entries = new Map<string, Set<string>>();
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const built = target.default;
    if (!built?.startsWith('./dist/') || !built.endsWith('.js')) continue;
    const source = read(built.replace('./dist/', 'src/').replace(/\.js$/, '.ts'));
    const names = new Set<string>();
    for (const list of source.matchAll(/^export (?:type )?\{([^}]*)\}/gm)) {
      for (const item of list[1]!.split(',')) {
        const name = item
          .trim()
          .replace(/^type /, '')
          .split(/\s+as\s+/)
          .pop();
        if (name) names.add(name);
      }
    }
    for (const decl of source.matchAll(
      /^export (?:async )?(?:function|const|class|type|interface) (\w+)/gm,
    )) {
      names.add(decl[1]!);
    }
    entries.set(subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`, names);
  }
  return entries;
}

/** The ```ts blocks of the README and the docs that import anything, with page and line. */
function importingSnippets(): { page: string; line: number; code: string }[] {
  const out: { page: string; line: number; code: string }[] = [];
  for (const page of pages()) {
    const text = read(page);
    for (const m of text.matchAll(/^```ts[^\n]*\n([\s\S]*?)^```/gm)) {
      if (!/^import /m.test(m[1]!)) continue;
      out.push({ page, line: text.slice(0, m.index).split('\n').length, code: m[1]! });
    }
  }
  return out;
}

/** What is wrong with the imports of one snippet. */
function importProblems(code: string, entries: Map<string, Set<string>>): string[] {
  const owners = new Map<string, string[]>();
  for (const [entry, names] of entries) {
    for (const name of names) owners.set(name, [...(owners.get(name) ?? []), entry]);
  }
  const problems: string[] = [];
  const imported = new Set<string>();
  for (const m of code.matchAll(/^import (?:type )?\{([^}]*)\} from '([^']+)'/gm)) {
    const exported = entries.get(m[2]!);
    for (const item of m[1]!.split(',')) {
      const [name, local = name] = item
        .trim()
        .replace(/^type /, '')
        .split(/\s+as\s+/);
      if (!name) continue;
      imported.add(local!);
      if (exported && !exported.has(name)) {
        problems.push(`${name} is imported from ${m[2]}, which does not export it`);
      }
    }
  }
  for (const m of code.matchAll(/^import (?:\* as )?(\w+) from/gm)) imported.add(m[1]!);
  const declared = new Set(
    [...code.matchAll(/\b(?:const|let|function|class|type|interface)\s+(\w+)/g)].map((m) => m[1]),
  );
  // Identifiers of the code, comments and string literals left out.
  const bare = code.replace(/\/\/.*$/gm, '').replace(/'[^'\n]*'|"[^"\n]*"|`[^`]*`/g, "''");
  const used = new Set([...bare.matchAll(/(?<![.\w$])([A-Za-z_$][\w$]*)/g)].map((m) => m[1]!));
  for (const name of used) {
    if (imported.has(name) || declared.has(name)) continue;
    const from = owners.get(name);
    if (from) problems.push(`${name} is used but not imported (from ${from.join(' or ')})`);
    else if (name === 'z') problems.push("z is used but not imported (from 'zod')");
  }
  return problems;
}

describe('the README', () => {
  const readme = read('README.md');

  it('stays short, with the two commands of this repository', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
    expect(readme).toContain('npm install && npm start');
    expect(readme).toContain('npm install && npm test');
  });

  it('links into the docs with relative links that lead to a file', () => {
    const links = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
      .map((m) => m[1]!)
      .filter((href) => !/^[a-z]+:/.test(href));
    const guides = links.filter((href) => href.startsWith('docs/guide/'));
    expect(guides.length).toBeGreaterThanOrEqual(12);
    expect(links.filter((href) => !existsSync(new URL(href, root)))).toEqual([]);
  });
});

describe('the README and docs snippets', () => {
  it('import the names they use from the entry that exports them', () => {
    const entries = entryExports();
    expect(entries.get('keelson')?.has('guarded')).toBe(true);
    expect(entries.get('keelson/client')?.has('RoutesOf')).toBe(true);
    const snippets = importingSnippets();
    expect(snippets.length).toBeGreaterThan(40);
    const problems = snippets.flatMap(({ page, line, code }) =>
      importProblems(code, entries).map((p) => `${page}:${line}: ${p}`),
    );
    expect(problems).toEqual([]);
  });

  it('tell a name imported from the wrong entry and a name not imported at all', () => {
    const entries = entryExports();
    const wrong = "import { guarded, jwt } from 'keelson/auth';\nget('/', () => z.string());\n";
    expect(importProblems(wrong, entries)).toEqual([
      'guarded is imported from keelson/auth, which does not export it',
      'get is used but not imported (from keelson)',
      "z is used but not imported (from 'zod')",
    ]);
  });
});
