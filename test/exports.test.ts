import { describe, expect, it } from 'vitest';
import * as keelson from '../src/index.js';

// A change to the public surface must be deliberate: update this list in the same commit.
describe('the public entry of keelson', () => {
  it('exports exactly these run-time names', () => {
    expect(Object.keys(keelson).sort()).toEqual([
      'App',
      'ConfigError',
      'Context',
      'Group',
      'IDEMPOTENCY_TABLE_SQL',
      'KError',
      'VERSION',
      'badRequest',
      'conflict',
      'del',
      'eventStream',
      'file',
      'forbidden',
      'get',
      'guarded',
      'head',
      'idempotency',
      'internal',
      'isKError',
      'loadConfig',
      'memoryIdempotencyStore',
      'memoryStore',
      'multipart',
      'notFound',
      'options',
      'paginate',
      'paginated',
      'pagination',
      'patch',
      'post',
      'put',
      'rateLimit',
      'redisIdempotencyStore',
      'redisStore',
      'route',
      'serviceUnavailable',
      'tooManyRequests',
      'unauthorized',
      'unprocessable',
      'ws',
    ]);
  });

  it('keeps VERSION equal to the package version', async () => {
    const { readFile } = await import('node:fs/promises');
    const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(keelson.VERSION).toBe(pkg.version);
  });
});

describe('the subpath entries keelson/extend, keelson/client, keelson/testing and keelson/db', () => {
  it('export exactly these run-time names', async () => {
    const extend = await import('../src/extend/index.js');
    expect(Object.keys(extend).sort()).toEqual([
      'BODY_READER',
      'DEFAULTS',
      'ENGINE_UNSUPPORTED',
      'ERROR_CATALOGUE',
      'EVENT_STREAM_TYPE',
      'EngineUnsupportedError',
      'MULTIPART_TYPE',
      'NOOP_SPAN',
      'PROBLEM_CHANNEL',
      'PROBLEM_CONTENT_TYPE',
      'RUNTIME_UNSUPPORTED',
      'RuntimeUnsupportedError',
      'describeMiddleware',
      'isKeelsonErrorCode',
      'middlewareDocsOf',
      'negotiateLanguage',
      'noopTracer',
      'resolveConfig',
      'statusTitle',
      'toProblem',
    ]);
    // One entry per name: what the root offers, the extension entry does not repeat.
    expect(Object.keys(extend).filter((name) => name in keelson)).toEqual([]);
    expect(Object.keys(await import('../src/client/index.js')).sort()).toEqual([
      'createClient',
      'fillPath',
    ]);
    expect(Object.keys(await import('../src/testing/index.js')).sort()).toEqual([
      'breakingChanges',
      'diffOpenApi',
      'injectFetch',
      'testDatabase',
      'verifyContract',
    ]);
    expect(Object.keys(await import('../src/db/index.js')).sort()).toEqual([
      'Database',
      'DatabaseError',
      'MigrationError',
      'SqlFragment',
      'SqlQuery',
      'TopicPayloadError',
      'database',
    ]);
  });
});
