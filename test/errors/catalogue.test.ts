import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { ERRORS_DOC_COMMAND, ERRORS_DOC_PATH, renderErrorsDoc } from '../../scripts/errors-doc.js';
import {
  catalogueProblem,
  ERROR_CATALOGUE,
  isKeelsonErrorCode,
  KError,
  type KeelsonErrorCode,
  keelsonError,
  notFound,
  PROBLEM_CHANNEL,
  statusTitle,
  toProblem,
} from '../../src/errors/index.js';
import { keelsonSite, ROOT } from '../support/keelson-site.js';

const codes = Object.keys(ERROR_CATALOGUE) as KeelsonErrorCode[];

describe('the error catalogue', () => {
  it('gives every code an error status, its phrase as title, a when and a what-to-do', () => {
    expect(codes.length).toBeGreaterThanOrEqual(25);
    for (const code of codes) {
      const { status, title, when, action } = ERROR_CATALOGUE[code];
      expect(code, code).toMatch(/^[A-Z]+(_[A-Z]+)*$/);
      expect(status >= 400 && status <= 599, code).toBe(true);
      expect(title, code).toBe(statusTitle(status));
      expect(when.length, code).toBeGreaterThan(20);
      expect(action.length, code).toBeGreaterThan(10);
    }
  });

  it('lists its codes in status order', () => {
    const statuses = codes.map((c) => ERROR_CATALOGUE[c].status);
    expect(statuses).toEqual([...statuses].sort((a, b) => a - b));
  });

  it('types a code as the union of its keys', () => {
    expectTypeOf<'VALIDATION_FAILED'>().toExtend<KeelsonErrorCode>();
    expectTypeOf<'OUT_OF_STOCK'>().not.toExtend<KeelsonErrorCode>();
  });

  it('tells its codes from others, whatever the value', () => {
    expect(isKeelsonErrorCode('TIMEOUT')).toBe(true);
    expect(isKeelsonErrorCode('OUT_OF_STOCK')).toBe(false);
    expect(isKeelsonErrorCode('toString')).toBe(false);
    expect(isKeelsonErrorCode(undefined)).toBe(false);
    // Not a string, though its string form is a code (Object.hasOwn would read it as one).
    expect(isKeelsonErrorCode(['TIMEOUT'])).toBe(false);
    expect(isKeelsonErrorCode({ toString: () => 'NOT_FOUND' })).toBe(false);
  });
});

describe('keelsonError and catalogueProblem', () => {
  it('build a KError with the catalogue status, the title as default detail, and the extras', () => {
    const cause = new Error('disk');
    const err = keelsonError('IDEMPOTENCY_KEY_IN_USE', undefined, {
      cause,
      headers: { 'retry-after': '1' },
    });
    expect(err).toBeInstanceOf(KError);
    expect(err).toMatchObject({ code: 'IDEMPOTENCY_KEY_IN_USE', statusCode: 409 });
    expect(err.message).toBe('Conflict');
    expect(err.cause).toBe(cause);
    expect(err.headers).toEqual({ 'retry-after': '1' });
    const issues = [{ path: 'body.a', message: 'Required' }];
    expect(keelsonError('VALIDATION_FAILED', 'bad', { errors: issues }).errors).toEqual(issues);
  });

  it('build a problem body for an answer written without an error', () => {
    expect(catalogueProblem('HEADERS_TOO_LARGE', 'too big')).toEqual({
      type: 'about:blank',
      title: 'Request Header Fields Too Large',
      status: 431,
      detail: 'too big',
      code: 'HEADERS_TOO_LARGE',
    });
    expect(catalogueProblem('EXPECTATION_FAILED').detail).toBe('Expectation Failed');
  });
});

describe('the keelson:problem diagnostics channel', () => {
  it('carries every problem made, with the thrown value it was made from', () => {
    const got: unknown[] = [];
    const listen = (message: unknown) => got.push(message);
    // By its documented name, as a watcher outside Keelson subscribes.
    subscribe('keelson:problem', listen);
    try {
      const err = notFound('no such pet');
      const made = toProblem(err);
      const raw = catalogueProblem('MALFORMED_REQUEST');
      const crash = toProblem(new Error('a bug'));
      expect(got).toEqual([
        { problem: made, error: err },
        { problem: raw, error: undefined },
        { problem: crash, error: expect.any(Error) },
      ]);
      expect(crash.code).toBe('INTERNAL');
      expect(PROBLEM_CHANNEL).toBe('keelson:problem');
    } finally {
      unsubscribe('keelson:problem', listen);
    }
  });
});

describe('docs/reference/errors.md', () => {
  it(`is the page the catalogue makes (if not, run: ${ERRORS_DOC_COMMAND})`, () => {
    const committed = readFileSync(join(ROOT, ERRORS_DOC_PATH), 'utf8');
    expect(
      committed === renderErrorsDoc(),
      `${ERRORS_DOC_PATH} is stale: run ${ERRORS_DOC_COMMAND}`,
    ).toBe(true);
  });

  it('has a section with the status, when and what to do for every code', () => {
    const page = renderErrorsDoc();
    for (const code of codes) {
      const { status, title, when, action } = ERROR_CATALOGUE[code];
      expect(page).toContain(`### ${code}\n\n**${status} ${title}**\n\n- When: ${when}\n`);
      expect(page).toContain(`- What to do: ${action}`);
    }
  });
});

describe('the runtime check of answered codes', () => {
  const stack = (...files: string[]) => ({
    stack: ['Error: x', ...files.map((f, i) => `    at fn${i} (${f}:1:2)`)].join('\n'),
  });

  it('blames Keelson for a value built in src/ outside src/errors/', () => {
    const err = stack(
      `${ROOT}src/errors/kerror.ts`,
      `${ROOT}src/http/thing.ts`,
      `${ROOT}test/a.ts`,
    );
    expect(keelsonSite(err)).toBe('src/http/thing.ts');
  });

  it('blames Keelson for an engine error no test frame called', () => {
    const err = stack('/x/node_modules/fastify/lib/errors.js', 'node:internal/process/task_queues');
    expect(keelsonSite(err)).toBe('node_modules/fastify/lib/errors.js');
  });

  it('leaves alone a value a test (a service) built, directly or through a library', () => {
    expect(keelsonSite(stack(`${ROOT}src/errors/kerror.ts`, `${ROOT}test/x.test.ts`))).toBe(
      undefined,
    );
    expect(keelsonSite(stack('/x/node_modules/http-errors/index.js', `${ROOT}test/y.ts`))).toBe(
      undefined,
    );
    expect(keelsonSite({ statusCode: 418 })).toBe(undefined);
    expect(keelsonSite(undefined)).toBe(undefined);
  });
});
