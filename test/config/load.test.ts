import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, loadConfig } from '../../src/index.js';

const Schema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  JWT_SECRET: z.string().min(16),
  LOG_LEVEL: z.enum(['debug', 'info']).default('info'),
});

function envFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'keelson-env-'));
  const file = join(dir, '.env');
  writeFileSync(file, text);
  return file;
}

function thrown(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('returns the typed config, coerced and with defaults', () => {
    const config = loadConfig(Schema, {
      env: { PORT: '8080', JWT_SECRET: 'a-secret-of-16-chars' },
      envFile: false,
    });

    expect(config).toEqual({ PORT: 8080, JWT_SECRET: 'a-secret-of-16-chars', LOG_LEVEL: 'info' });
    expectTypeOf(config.PORT).toEqualTypeOf<number>();
    expectTypeOf(config.LOG_LEVEL).toEqualTypeOf<'debug' | 'info'>();
  });

  it('reads the env file when it exists, and the environment wins over it', () => {
    const file = envFile('PORT=4000\nJWT_SECRET="from-the-file-123"\n# a comment\n');
    const config = loadConfig(Schema, { env: { PORT: '5000' }, envFile: file });

    expect(config).toMatchObject({ PORT: 5000, JWT_SECRET: 'from-the-file-123' });
  });

  it('reads no file when the env file does not exist', () => {
    const config = loadConfig(Schema, {
      env: { JWT_SECRET: 'a-secret-of-16-chars' },
      envFile: join(tmpdir(), 'no-such-dir-keelson', '.env'),
    });
    expect(config.PORT).toBe(3000);
  });

  it('lists every missing and invalid variable with its reason, never the value', () => {
    const secret = 'short-secret';
    const err = thrown(() =>
      loadConfig(Schema, {
        env: { PORT: 'not-a-port', JWT_SECRET: secret, LOG_LEVEL: 'loud' },
        envFile: false,
      }),
    );

    expect(err.issues.map((i) => i.variable)).toEqual(['PORT', 'JWT_SECRET', 'LOG_LEVEL']);
    expect(err.message).toMatch(/^invalid config: 3 environment variables missing or invalid:/);
    expect(err.message).toContain('\n  PORT: ');
    expect(err.message).not.toContain(secret);
    expect(err.message).not.toContain('not-a-port');
    expect(err.message).not.toContain('loud');
    expect(err.value).toBeUndefined();
  });

  it('says a missing variable is missing', () => {
    const err = thrown(() => loadConfig(Schema, { env: {}, envFile: false }));

    expect(err.issues).toEqual([{ variable: 'JWT_SECRET', reason: 'is missing' }]);
    expect(err.code).toBe('CONFIG_INVALID');
  });

  // process.chdir() is not available in worker threads (where Stryker runs the tests).
  it.skipIf(!isMainThread)(
    'reads .env in the working directory by default and process.env by default',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'keelson-cwd-'));
      writeFileSync(join(dir, '.env'), 'KEELSON_TEST_FROM_FILE=yes\n');
      const cwd = process.cwd();
      process.chdir(dir);
      try {
        const config = loadConfig(z.object({ KEELSON_TEST_FROM_FILE: z.string() }));
        expect(config.KEELSON_TEST_FROM_FILE).toBe('yes');
      } finally {
        process.chdir(cwd);
      }
    },
  );
});
