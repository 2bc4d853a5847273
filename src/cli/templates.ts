/**
 * The templates `keelson new` and `keelson generate` copy: files under the package's
 * `templates/` folder (shipped in the package), with `__placeholders__` filled in.
 * @module
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package's root: two levels above this file both in `src/cli/` (tests) and in `dist/cli/`
 * (the installed command), so the templates are found without a copy step.
 */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The folder of one template set: `project` or `module`. */
export function templateDir(name: 'project' | 'module'): string {
  return join(PACKAGE_ROOT, 'templates', name);
}

// npm leaves `.gitignore` out of published packages, so dotfiles are stored without the dot.
const RENAMED: Readonly<Record<string, string>> = {
  gitignore: '.gitignore',
  dockerignore: '.dockerignore',
  'env.example': '.env.example',
};

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

function fill(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/__([A-Za-z]+)__/g, (whole, key: string) => values[key] ?? whole);
}

/**
 * Copies a template set into `target`, filling `__key__` in paths and contents from `values`;
 * refuses (before writing anything) when any of the files already exists. Returns the paths
 * written, relative to `target`.
 */
export async function copyTemplate(
  from: string,
  target: string,
  values: Readonly<Record<string, string>>,
  exists: (path: string) => boolean,
): Promise<string[]> {
  const plan = (await filesUnder(from)).map((file) => {
    const name = RENAMED[file] ?? file;
    return { source: join(from, file), path: fill(name, values) };
  });
  const clash = plan.find((p) => exists(join(target, p.path)));
  if (clash) throw new Error(`${join(target, clash.path)} already exists: nothing was written`);
  for (const { source, path } of plan) {
    const dest = join(target, path);
    await mkdir(dirname(dest), { recursive: true });
    await writeFile(dest, fill(await readFile(source, 'utf8'), values));
  }
  return plan.map((p) => p.path);
}
