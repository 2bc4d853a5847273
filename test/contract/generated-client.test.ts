// Clients generated from the document must compile: openapi-typescript with
// defaultNonNullable: false (fields with a default are optional to a client), under strict.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { kitchenSink } from './kitchen-sink.js';

const work = join(process.cwd(), '.tmp/kitchen-client');

describe('the kitchen-sink document, through openapi-typescript', () => {
  afterAll(() => rm(work, { recursive: true, force: true }));

  it('gives types that compile under strict and describe the operations', async () => {
    const doc = await kitchenSink().openapi();
    const types = astToString(
      await openapiTS(structuredClone(doc) as never, { silent: true, defaultNonNullable: false }),
    );
    await mkdir(work, { recursive: true });
    await writeFile(join(work, 'api.d.ts'), types);
    await writeFile(
      join(work, 'use.ts'),
      [
        "import type { paths } from './api.js';",
        "type Note = paths['/notes']['get']['responses'][200]['content']['application/json'][number];",
        "export const note: Note = { id: 1, text: 'a', pinned: false };",
        "type Report = paths['/report']['get']['responses'][200]['content']['text/plain'];",
        "export const report: Report = 'ok';",
        "type Added = paths['/notes']['post']['requestBody'];",
        "export const added: NonNullable<Added>['content']['application/json'] = { text: 'b', pinned: true };",
        "type Problem = paths['/missing/{id}']['get']['responses']['4XX']['content']['application/problem+json'];",
        "export const problem: Problem = { type: 'about:blank', title: 'Not Found', status: 404, detail: 'x', code: 'NOT_FOUND' };",
      ].join('\n'),
    );
    const program = ts.createProgram([join(work, 'use.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2023,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      skipLibCheck: false,
      types: [],
    });
    const errors = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(errors).toEqual([]);
  });
});
