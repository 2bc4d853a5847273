/**
 * `keelson generate module <name>`: a migration, a module folder (a repository on the app's
 * database, a CRUD controller) and its test.
 * @module
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { checkModuleName, nameForms, nextMigrationName } from './names.js';
import { copyTemplate, templateDir } from './templates.js';
import { type CliIo, parse, UsageError } from './usage.js';

/** The help of `keelson generate`. */
export const GENERATE_HELP = `Usage: keelson generate module <name>   (alias: keelson g module <name>)

Adds migrations/<next number>_<name>.sql (its table), src/modules/<name>/ (zod schemas, a
repository on the app's database with keyset pagination, a CRUD controller with 404s, the
Module) and test/modules/<name>.test.ts (on testDatabase()), then prints the two lines to add
to src/app.ts. It never edits your code. <name> is lower-case words joined by hyphens: users,
order-items.`;

/** The lines that wire a generated module into src/app.ts. */
export function wiringLines(name: string): { importLine: string; useLine: string } {
  const { plural } = nameForms(name);
  return {
    importLine: `import { ${plural}Module } from './modules/${name}/index.js';`,
    useLine: `app.use(new ${plural}Module(db));`,
  };
}

/** Writes a module's files under `root`; returns the paths written. Throws when one exists. */
export function writeModule(root: string, name: string): Promise<string[]> {
  const forms = nameForms(checkModuleName(name));
  const table = forms.kebab.replaceAll('-', '_');
  const migrations = join(root, 'migrations');
  const existing = existsSync(migrations) ? readdirSync(migrations) : [];
  return copyTemplate(
    templateDir('module'),
    root,
    {
      name: forms.kebab,
      Entities: forms.plural,
      Entity: forms.singular,
      words: forms.words,
      table,
      migration: nextMigrationName(existing, table).replace(/\.sql$/, ''),
    },
    existsSync,
  );
}

/** Runs `keelson generate`; returns the exit code. */
export async function generateCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parse(argv, {}, 2);
  if (args.values.help) {
    io.out(GENERATE_HELP);
    return 0;
  }
  const [kind, name] = args.positionals;
  if (kind !== 'module') {
    throw new UsageError(
      kind
        ? `cannot generate ${JSON.stringify(kind)}: only "module" is supported`
        : 'what to generate is missing: keelson generate module <name>',
    );
  }
  checkModuleName(name);
  if (!existsSync(join(io.cwd, 'package.json')) || !existsSync(join(io.cwd, 'src'))) {
    io.err(
      `${io.cwd} is not a Keelson project (no package.json and src/): run it in the project's folder`,
    );
    return 1;
  }
  const written = await writeModule(io.cwd, name!);
  const { importLine, useLine } = wiringLines(name!);
  io.out(`created\n${written.map((f) => `  ${f}`).join('\n')}\n`);
  io.out('The app applies the migration when it starts (or now: npx keelson db migrate).\n');
  io.out(
    `Add to src/app.ts (the import at the top, the use in createApp):\n  ${importLine}\n  ${useLine}`,
  );
  return 0;
}
