import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

it('prints only the document on stdout, the inspected app logging its database start to stderr', () => {
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'src/cli/main.ts', 'openapi', 'examples/basic/app.ts'],
    { cwd: root, encoding: 'utf8', env: { ...process.env, DATABASE_URL: '' }, timeout: 60_000 },
  );
  expect(r.status).toBe(0);
  expect(JSON.parse(r.stdout)).toMatchObject({ openapi: '3.1.0' });
  expect(r.stderr).toMatch(/database: embedded PostgreSQL \(PGlite\) in memory:\/\//);
}, 60_000);
