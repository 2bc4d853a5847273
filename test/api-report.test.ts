import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { apiEntries, apiReports } from '../scripts/api-report.js';

// The committed API report (etc/api/) is the public surface of every package entry: a change to
// it must be deliberate and show in the diff. Regenerate with `npm run api:report`.
const root = fileURLToPath(new URL('../', import.meta.url));

describe('the API report in etc/api/', () => {
  it('has one report per package entry, each up to date', { timeout: 120_000 }, () => {
    const reports = apiReports(root);
    expect([...reports.keys()].sort()).toEqual(
      apiEntries(root)
        .map((e) => e.report)
        .sort(),
    );
    for (const [path, text] of reports) {
      let committed = '';
      try {
        committed = readFileSync(join(root, path), 'utf8');
      } catch {}
      expect(committed, `${path} is stale: run \`npm run api:report\` and commit etc/api/`).toBe(
        text,
      );
    }
  });

  it('shows every name with its declaration, bodies and private members left out', () => {
    const report = readFileSync(join(root, 'etc/api/keelson.api.md'), 'utf8');
    expect(report).toContain('56 names.');
    expect(report).toContain('export function notFound(message?: string, cause?: unknown): KError');
    expect(report).toContain('  readonly code: "CONFIG_INVALID"');
    expect(report).not.toMatch(/#[a-z]/);
  });
});
