import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { resolveConfig } from '../../src/extend/index.js';
import { ConfigError, loadConfig } from '../../src/index.js';

// loadConfig's refusals and the paths of its issues, with hand-made Standard Schemas where zod
// cannot produce the case (an issue without a path, an asynchronous result).

function schemaOf(
  validate: (value: unknown) => StandardSchemaV1.Result<Record<string, unknown>> | Promise<never>,
): StandardSchemaV1<Record<string, unknown>> {
  return { '~standard': { version: 1, vendor: 'test', validate } };
}

function issuesOf(schema: StandardSchemaV1<Record<string, unknown>>, env = {}) {
  try {
    loadConfig(schema, { env, envFile: false });
  } catch (err) {
    if (err instanceof ConfigError) return err.issues;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig refuses', () => {
  it('something that is not a schema, saying what it takes', () => {
    for (const bad of [undefined, {}, { '~standard': {} }]) {
      expect(() => loadConfig(bad as never, { envFile: false })).toThrow(
        new TypeError('loadConfig takes a schema such as z.object({ … })'),
      );
    }
  });

  it('an asynchronous schema', () => {
    const schema = schemaOf(() => new Promise<never>(() => {}));
    expect(() => loadConfig(schema, { env: {}, envFile: false })).toThrow(
      new TypeError('loadConfig needs a synchronous schema (no async refinements)'),
    );
  });

  it('an env file it cannot read, other than a missing one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'keelson-envdir-'));
    expect(() => loadConfig(z.object({}), { env: {}, envFile: dir })).toThrow(/EISDIR/);
  });
});

describe('loadConfig reads', () => {
  it('a variable the environment lists as undefined from the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'keelson-env-'));
    const file = join(dir, '.env');
    writeFileSync(file, 'NAME=from-file\n');
    const config = loadConfig(z.object({ NAME: z.string() }), {
      env: { NAME: undefined },
      envFile: file,
    });
    expect(config.NAME).toBe('from-file');
  });
});

describe("loadConfig's issues", () => {
  it('give the schema’s reason for a variable that is present but invalid', () => {
    const issues = issuesOf(z.object({ PORT: z.coerce.number().int() }), { PORT: 'x' });
    expect(issues).toHaveLength(1);
    expect(issues[0]?.variable).toBe('PORT');
    expect(issues[0]?.reason).not.toBe('is missing');
    expect(issues[0]?.reason).toMatch(/number/i);
  });

  it('name the whole config for an issue without a path, or with an empty one', () => {
    const schema = schemaOf(() => ({
      issues: [{ message: 'A or B is needed' }, { message: 'too many', path: [] }],
    }));
    expect(issuesOf(schema)).toEqual([
      { variable: '(config)', reason: 'A or B is needed' },
      { variable: '(config)', reason: 'too many' },
    ]);
  });

  it('join the segments of a path, plain keys and { key } objects alike, with dots', () => {
    const schema = schemaOf(() => ({
      issues: [{ message: 'bad', path: [{ key: 'DB' }, 'HOST', 0] }],
    }));
    expect(issuesOf(schema, { DB: 'x' })).toEqual([
      { variable: 'DB.HOST.0', reason: 'is missing' },
    ]);
  });
});

describe('resolveConfig', () => {
  it('accepts a headersTimeoutMs equal to requestTimeoutMs', () => {
    const config = resolveConfig({
      serviceName: 's',
      requestTimeoutMs: 5_000,
      headersTimeoutMs: 5_000,
    });
    expect(config.headersTimeoutMs).toBe(5_000);
  });

  it('accepts each of the three environments', () => {
    for (const env of ['development', 'staging', 'production'] as const) {
      expect(resolveConfig({ serviceName: 's', env }).env).toBe(env);
    }
  });
});
