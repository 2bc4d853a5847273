import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { allSnippets, keelsonPaths, ROOT, type Snippet, snippetsOf, where } from './snippets.js';

// Every ```ts block of the README and the docs compiles against the sources, with the project's
// strict options, as a module of its own; the blocks marked `ts run` are also run with tsx.

const run = promisify(execFile);
mkdirSync(join(ROOT, '.tmp'), { recursive: true });
// Under the repository, so that 'zod', 'vitest', 'ioredis'… resolve from its node_modules.
const dir = mkdtempSync(join(ROOT, '.tmp', 'docs-snippets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const raw = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile).config as {
  compilerOptions: Record<string, unknown>;
};
const base = ts.parseJsonConfigFileContent(raw, ts.sys, ROOT).options;
const options: ts.CompilerOptions = {
  ...base,
  noEmit: true,
  baseUrl: ROOT,
  paths: keelsonPaths(),
  types: ['node'],
};

/** Each snippet's file name in `dir`: `docs-guide-routing.md-42.mts`. */
function fileOf(s: Snippet): string {
  return join(dir, `${s.page.replace(/[/\\]/g, '-')}-${s.line}.mts`);
}

/** The compiler's complaints about each snippet, as `page:line: message` strings. */
function compile(snippets: Snippet[]): string[] {
  const byFile = new Map(snippets.map((s) => [fileOf(s), s]));
  for (const [file, s] of byFile) writeFileSync(file, s.module);
  const program = ts.createProgram([...byFile.keys()], options);
  const problems: string[] = [];
  for (const [file, s] of byFile) {
    const source = program.getSourceFile(file);
    if (!source) throw new Error(`${file} was not part of the program`);
    const diagnostics = [
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    ];
    for (const d of diagnostics) {
      const at = d.start === undefined ? 0 : source.getLineAndCharacterOfPosition(d.start).line;
      const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
      // The block's own lines are numbered from the fence; prelude lines come after them.
      problems.push(`${s.page}:${s.line + 1 + at}: ${text}`);
    }
  }
  return problems;
}

describe('the code blocks of the README and the docs', () => {
  const snippets = allSnippets();

  it('are found on the pages, the runnable ones marked', () => {
    expect(snippets.length).toBeGreaterThan(40);
    expect(snippets.some((s) => s.run)).toBe(true);
    expect(new Set(snippets.map((s) => s.page))).toContain('README.md');
  });

  it('type-check against the sources, each as a module of its own', () => {
    expect(compile(snippets)).toEqual([]);
  }, 120_000);

  it('name the page and the line of a block that does not compile', () => {
    const page = [
      '# A page',
      '',
      '<!-- snippet-prelude',
      "declare const app: import('keelson').App;",
      '-->',
      '',
      '```ts',
      "import { get } from 'keelson';",
      "app.addRoutes(get('/', () => 'ok'));",
      'const n: number = app.nothing;',
      '```',
      '',
    ].join('\n');
    const [s] = snippetsOf('docs/broken.md', page);
    expect(s?.module).toContain('declare const app');
    const problems = compile([s!]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^docs\/broken\.md:10: Property 'nothing' does not exist/);
  }, 60_000);

  it('run to completion when marked `ts run`', async () => {
    const runnable = snippets.filter((s) => s.run);
    const tsconfig = join(dir, 'tsconfig.json');
    writeFileSync(
      tsconfig,
      JSON.stringify({
        compilerOptions: { ...raw.compilerOptions, baseUrl: ROOT, paths: keelsonPaths() },
      }),
    );
    const failures: string[] = [];
    // All at once: each is mostly a process starting up.
    await Promise.all(
      runnable.map(async (s) => {
        const file = fileOf(s);
        writeFileSync(file, s.module);
        try {
          // Its own folder as working directory: a block that stores anything stores it there.
          await run(process.execPath, ['--import', 'tsx', file], {
            cwd: mkdtempSync(join(dir, 'cwd-')),
            timeout: 60_000,
            env: { ...process.env, TSX_TSCONFIG_PATH: tsconfig, NODE_ENV: 'test' },
          });
        } catch (err) {
          const e = err as { code?: number; stdout?: string; stderr?: string };
          const output = `${e.stderr ?? ''}${e.stdout ?? ''}`.slice(-3000);
          failures.push(`${where(s)}: exit ${e.code}\n${output}`);
        }
      }),
    );
    expect(failures).toEqual([]);
  }, 120_000);
});
