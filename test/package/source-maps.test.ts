import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;

async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...(await sourceFiles(path)));
    else if (entry.name.endsWith('.ts')) out.push(path);
  }
  return out;
}

async function compilerOptions(): Promise<Record<string, unknown>> {
  const read = async (file: string) =>
    JSON.parse(await readFile(join(root, file), 'utf8')) as {
      compilerOptions?: Record<string, unknown>;
    };
  const [base, build] = await Promise.all([read('tsconfig.json'), read('tsconfig.build.json')]);
  return { ...base.compilerOptions, ...build.compilerOptions };
}

describe('the published package', () => {
  it('ships every source file its source maps point to', async () => {
    const options = await compilerOptions();
    const { stdout } = await promisify(execFile)(
      'npm',
      ['pack', '--dry-run', '--json', '--ignore-scripts'],
      {
        cwd: root,
      },
    );
    const packed = new Set(
      (JSON.parse(stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path),
    );

    // dist/x.js.map names ../src/x.ts (declaration maps too): those files must be in the tarball.
    expect(options.sourceMap || options.declarationMap).toBeTruthy();
    expect(options.rootDir).toBe('src');
    expect(options.outDir).toBe('dist');
    const sources = await sourceFiles('src');
    expect(sources.length).toBeGreaterThan(50);
    const missing = sources.filter((file) => !packed.has(file));
    expect(missing).toEqual([]);
  });
});
