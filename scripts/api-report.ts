// The API report: every name each package entry exports, with its declaration (signatures,
// members and types, bodies and private members left out), one file per entry in etc/api/.
// A surface change shows in the diff of these files; test/api-report.test.ts fails while they
// are stale.
//   npm run api:report writes etc/api/*.api.md
//   npm run api:report -- --check  exits 1 when a committed report differs
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** One package entry: its subpath (`.`, `./auth`), its report file and its source file. */
export interface ApiEntry {
  readonly subpath: string;
  readonly report: string;
  readonly source: string;
}

/** The entries of package.json `exports` whose target is a built module. */
export function apiEntries(root: string): ApiEntry[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, string | { default?: string }>;
  };
  const entries: ApiEntry[] = [];
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const built = typeof target === 'string' ? target : target.default;
    if (!built?.startsWith('./dist/') || !built.endsWith('.js')) continue;
    const name = subpath === '.' ? pkg.name : `${pkg.name}-${subpath.slice(2).replace(/\//g, '-')}`;
    const source = built.replace('./dist/', 'src/').replace(/\.js$/, '.ts');
    entries.push({ subpath, report: `etc/api/${name}.api.md`, source });
  }
  return entries;
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** The text of `node` without its body or initializer: a signature, a property's head. */
function head(node: ts.Node, file: ts.SourceFile): string {
  const { body, initializer } = node as { body?: ts.Node; initializer?: ts.Node };
  const end = body ? body.getStart(file) : initializer ? initializer.getFullStart() : node.getEnd();
  return oneLine(file.text.slice(node.getStart(file), end))
    .replace(/\s*=$/, '')
    .replace(/;$/, '');
}

/** The type of a property declared by its initializer alone, as `: T`; empty otherwise. */
function inferred(member: ts.ClassElement, checker: ts.TypeChecker): string {
  if (!ts.isPropertyDeclaration(member) || member.type || !member.initializer) return '';
  return `: ${checker.typeToString(checker.getTypeAtLocation(member), member, ts.TypeFormatFlags.NoTruncation)}`;
}

/** An implementation behind overload signatures: the signatures are the API, it is not. */
function isImplementation(node: ts.Node, siblings: readonly ts.Node[]): boolean {
  if (!(node as { body?: ts.Node }).body) return false;
  const name = (node as { name?: ts.Node }).name?.getText();
  return siblings.some(
    (s) =>
      s !== node &&
      s.kind === node.kind &&
      !(s as { body?: ts.Node }).body &&
      (s as { name?: ts.Node }).name?.getText() === name,
  );
}

const isPrivate = (member: ts.ClassElement): boolean =>
  (member.name !== undefined && ts.isPrivateIdentifier(member.name)) ||
  (ts.getCombinedModifierFlags(member as ts.Declaration) & ts.ModifierFlags.Private) !== 0;

/** The declaration as the report shows it. */
function describe(decl: ts.Declaration, checker: ts.TypeChecker): string {
  const file = decl.getSourceFile();
  if (ts.isClassDeclaration(decl)) {
    const heading = oneLine(file.text.slice(decl.getStart(file), decl.members.pos)).replace(
      /\{$/,
      '',
    );
    const members = decl.members
      .filter((m) => !isPrivate(m) && !isImplementation(m, decl.members))
      .map((m) => `  ${head(m, file)}${inferred(m, checker)}`);
    return [`${heading.trim()} {`, ...members, '}'].join('\n');
  }
  if (ts.isFunctionDeclaration(decl)) return head(decl, file);
  if (ts.isVariableDeclaration(decl)) {
    const type = checker.typeToString(
      checker.getTypeAtLocation(decl),
      decl,
      ts.TypeFormatFlags.NoTruncation,
    );
    return `const ${decl.name.getText(file)}: ${type}`;
  }
  // Interfaces, type aliases, enums: their text, comments left out.
  const printer = ts.createPrinter({ removeComments: true });
  return printer.printNode(ts.EmitHint.Unspecified, decl, file).trim();
}

/** The report of each entry, by report path. */
export function apiReports(root: string): Map<string, string> {
  const entries = apiEntries(root);
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  const options = { ...config?.options, noEmit: true };
  const program = ts.createProgram(
    entries.map((e) => join(root, e.source)),
    options,
  );
  const checker = program.getTypeChecker();
  const reports = new Map<string, string>();
  for (const entry of entries) {
    const file = program.getSourceFile(join(root, entry.source));
    const moduleSymbol = file && checker.getSymbolAtLocation(file);
    if (!moduleSymbol) throw new Error(`api-report: cannot read ${entry.source}`);
    const exported = checker.getExportsOfModule(moduleSymbol);
    const lines = [
      `# API report: ${entry.subpath === '.' ? 'keelson' : `keelson/${entry.subpath.slice(2)}`}`,
      '',
      `Generated from ${entry.source} by \`npm run api:report\`; do not edit.`,
      `${exported.length} names.`,
      '',
      '```ts',
    ];
    for (const symbol of [...exported].sort((a, b) => a.name.localeCompare(b.name))) {
      const target =
        symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const decls = target.declarations ?? [];
      lines.push(`// ${symbol.name}`);
      for (const decl of decls) {
        if (!isImplementation(decl, decls)) lines.push(describe(decl, checker));
      }
      lines.push('');
    }
    lines.push('```', '');
    reports.set(entry.report, lines.join('\n'));
  }
  return reports;
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const root = fileURLToPath(new URL('../', import.meta.url));
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const [path, text] of apiReports(root)) {
    let committed = '';
    try {
      committed = readFileSync(join(root, path), 'utf8');
    } catch {}
    if (committed === text) continue;
    stale++;
    if (check) console.error(`stale: ${path}`);
    else writeFileSync(join(root, path), text);
  }
  if (check && stale > 0) {
    console.error('The API report is stale: run `npm run api:report` and commit etc/api/.');
    process.exit(1);
  }
}
