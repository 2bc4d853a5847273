/**
 * `keelson new <dir>`: a runnable project.
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { writeModule } from './generate.js';
import { checkServiceName } from './names.js';
import { copyTemplate, PACKAGE_ROOT, templateDir } from './templates.js';
import { type CliIo, parse, stringOption, UsageError } from './usage.js';

/** The help of `keelson new`. */
export const NEW_HELP = `Usage: keelson new <dir> [--name <service>] [--keelson <spec>]

Creates a runnable Keelson project in <dir>, which must be empty or absent: package.json,
tsconfig.json, src/app.ts (builds the App and its database), src/main.ts (loads .env, listens),
a "notes" module (migrations/0001_notes.sql, a repository, a controller) with its test,
.env.example, .gitignore, .dockerignore, a Dockerfile, vitest.config.ts and a README. The
database is embedded (PGlite, in .keelson/db) until DATABASE_URL names a PostgreSQL server.

Options:
  --name <service>    the service and package name (default: the folder's name)
  --keelson <spec>    the keelson dependency, e.g. file:../keelson.tgz (default: where this command
                      comes from when that is not the registry: the git checkout it runs from, or
                      the file: spec it was installed by; else ^<this version>)
  -h, --help          this help`;

interface OwnPackage {
  version: string;
  engines: { node: string };
  devDependencies: Record<string, string>;
}

function ownPackage(root: string = PACKAGE_ROOT): OwnPackage {
  return JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as OwnPackage;
}

/** `file:` and the path of `to` from the project folder `from`, with forward slashes. */
function fileSpec(from: string, to: string): string {
  return `file:${(relative(from, to) || '.').split(sep).join('/')}`;
}

/**
 * The keelson dependency of a project made in `target` when `--keelson` is not given, decided
 * without the network: the command runs from a git checkout (its package is not published) →
 * that checkout; from `node_modules/keelson` installed by a `file:` spec (`npx
 * --package=./keelson.tgz`) → that file; else the published range `^<version>`.
 */
export function defaultKeelsonSpec(target: string, root: string = PACKAGE_ROOT): string {
  const home = resolve(root);
  if (existsSync(join(home, '.git'))) return fileSpec(target, home);
  const modules = dirname(home);
  if (basename(modules) === 'node_modules') {
    const installer = dirname(modules);
    const spec = installedBy(join(installer, 'package.json'));
    if (spec?.startsWith('file:')) return fileSpec(target, resolve(installer, spec.slice(5)));
  }
  return `^${ownPackage(home).version}`;
}

// The spec the package.json beside node_modules gives keelson, when it is readable.
function installedBy(file: string): string | undefined {
  try {
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as Partial<
      Record<'dependencies' | 'devDependencies', Record<string, string>>
    >;
    return pkg.dependencies?.keelson ?? pkg.devDependencies?.keelson;
  } catch {
    return undefined;
  }
}

/** The new project's package.json; tool versions follow the ones keelson is built and tested with. */
export function projectPackage(name: string, keelsonSpec: string): string {
  const own = ownPackage();
  const v = (dep: string) => own.devDependencies[dep] ?? 'latest';
  const pkg = {
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    engines: { node: own.engines.node },
    scripts: {
      start: 'node --import tsx src/main.ts',
      dev: 'keelson dev',
      test: 'vitest run',
      typecheck: 'tsc --noEmit',
      routes: 'keelson routes',
      openapi: 'keelson openapi --out openapi.json',
    },
    dependencies: {
      keelson: keelsonSpec,
      '@electric-sql/pglite': v('@electric-sql/pglite'),
      pg: v('pg'),
      tsx: v('tsx'),
      zod: v('zod'),
    },
    devDependencies: {
      '@types/node': v('@types/node'),
      typescript: v('typescript'),
      vitest: v('vitest'),
    },
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

/** Runs `keelson new`; returns the exit code. */
export async function newCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parse(argv, { name: { type: 'string' }, keelson: { type: 'string' } }, 1);
  if (args.values.help) {
    io.out(NEW_HELP);
    return 0;
  }
  const dir = args.positionals[0];
  if (!dir) throw new UsageError('the project folder is missing: keelson new <dir>');
  const target = resolve(io.cwd, dir);
  const name = checkServiceName(stringOption(args, 'name') ?? basename(target));
  const spec = stringOption(args, 'keelson');
  if (spec === '') throw new UsageError('--keelson needs a version or a file: spec');
  if (existsSync(target) && (await readdir(target)).length > 0) {
    io.err(`${target} is not empty: keelson new only writes into an empty or new folder`);
    return 1;
  }
  await mkdir(target, { recursive: true });
  const files = await copyTemplate(templateDir('project'), target, { service: name }, () => false);
  files.push(...(await writeModule(target, 'notes')));
  const keelson = spec ?? defaultKeelsonSpec(target);
  await writeFile(join(target, 'package.json'), projectPackage(name, keelson));
  files.push('package.json');
  const where = relative(io.cwd, target) || '.';
  io.out(
    `created ${name} in ${target} (${files.length} files)\n\nNext:\n  cd ${where}\n  npm install && npm start   # http://localhost:3000/health\n  npm test\n\nOn Bun:\n  bun install && bun --bun run start\n  bun --bun run test`,
  );
  if (spec === undefined && keelson.startsWith('file:')) {
    const from = resolve(target, keelson.slice(5));
    const unbuilt = existsSync(join(from, '.git')) && !existsSync(join(from, 'dist', 'index.js'));
    io.out(`\nkeelson is ${keelson}: the copy this command runs from (not from the registry)`);
    if (unbuilt) io.err(`${from} has no dist/: run npm run build there before npm install`);
  }
  return 0;
}
