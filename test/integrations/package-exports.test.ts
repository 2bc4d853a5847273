import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
const ts = require('typescript') as typeof import('typescript');

const INTEGRATIONS = [
  'prometheus',
  'opentelemetry',
  'i18n',
  'scheduler',
  'queue',
  'cluster',
] as const;

type Conditions = { types: string; default: string };
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, Conditions | string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  devDependencies?: Record<string, string>;
};

/** Every file `npm run build` (tsc -p tsconfig.build.json) writes, relative to the root. */
function buildOutputs(): Set<string> {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.build.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.build.json could not be read');
  const out = new Set<string>();
  for (const file of config.fileNames) {
    for (const o of ts.getOutputFileNames(config, file, false)) out.add(`./${relative(root, o)}`);
  }
  return out;
}

function sourcesOf(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name));
}

describe('the package exports of the integrations', () => {
  const outputs = buildOutputs();

  it.each(INTEGRATIONS)('maps keelson/%s to files the build emits', (name) => {
    const entry = pkg.exports[`./${name}`];
    expect(entry).toEqual({
      types: `./dist/integrations/${name}/index.d.ts`,
      default: `./dist/integrations/${name}/index.js`,
    });
    const { types, default: js } = entry as Conditions;
    expect(outputs).toContain(types);
    expect(outputs).toContain(js);
  });

  it('points every exports entry of the package at a file the build emits or ships', () => {
    for (const [subpath, entry] of Object.entries(pkg.exports)) {
      const targets = typeof entry === 'string' ? [entry] : Object.values(entry);
      for (const target of targets) {
        if (target === './package.json') continue;
        expect(outputs, `${subpath} → ${target}`).toContain(target);
      }
    }
  });

  it('declares each adapter library as an optional peer dependency, installed for the tests', () => {
    const libs = Object.keys(pkg.peerDependencies ?? {});
    expect(libs).toEqual(
      expect.arrayContaining(['prom-client', '@opentelemetry/api', 'croner', 'bullmq', 'ioredis']),
    );
    for (const lib of libs) {
      expect(pkg.peerDependenciesMeta?.[lib]?.optional, lib).toBe(true);
      expect(pkg.devDependencies?.[lib], lib).toBe(pkg.peerDependencies?.[lib]);
    }
  });

  it('keeps the core free of imports of the integrations and the data layer', () => {
    const outside = ['integrations', 'db', 'testing', 'cli'].map((d) => join(root, 'src', d));
    const core = sourcesOf(join(root, 'src')).filter(
      (f) => !outside.some((dir) => f.startsWith(dir)),
    );
    expect(core.length).toBeGreaterThan(10);
    for (const file of core) {
      expect(readFileSync(file, 'utf8'), relative(root, file)).not.toMatch(
        /from\s+['"][^'"]*(integrations|db)\/|from\s+['"](prom-client|croner|bullmq|ioredis|pg|@electric-sql\/pglite|@opentelemetry\/)['"/]/,
      );
    }
  });
});
