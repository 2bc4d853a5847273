import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tour } from '../../examples/basic/client.js';
import { clientTypes } from '../../examples/basic/gen-client.js';
import type { App } from '../../src/index.js';
import { verifyContract } from '../../src/testing/index.js';
import { exampleApp } from '../support/example-app.js';
import { openApiProblems } from './valid-openapi.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const work = join(root, '.tmp/client-check');

/** Type-checks `files` (name → source) beside the generated api.d.ts; errors by file. */
async function typeErrors(files: Record<string, string>): Promise<Record<string, string[]>> {
  for (const [name, text] of Object.entries(files)) await writeFile(join(work, name), text);
  const names = Object.keys(files).map((f) => join(work, f));
  const program = ts.createProgram(names, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2023,
    lib: ['lib.es2023.d.ts'],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ['node'],
    skipLibCheck: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
  });
  const text = (d: ts.Diagnostic) => ts.flattenDiagnosticMessageText(d.messageText, '\n');
  const out: Record<string, string[]> = {
    '*': [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()].map(text),
  };
  for (const name of Object.keys(files)) {
    const source = program.getSourceFile(join(work, name));
    out[name] = [
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    ].map(text);
  }
  return out;
}

describe('the example service', () => {
  it('has a valid OpenAPI 3.1 document', async () => {
    expect(await openApiProblems(await (await exampleApp()).openapi())).toEqual([]);
  });

  it('answers what its document says', async () => {
    expect(await verifyContract(await exampleApp())).toEqual([]);
  });

  it('has a generated client that type-checks the example client, and refuses calls the document does not allow', async () => {
    await rm(work, { recursive: true, force: true });
    await mkdir(work, { recursive: true });
    await writeFile(join(work, 'api.d.ts'), await clientTypes());
    await writeFile(join(work, 'package.json'), '{ "type": "module" }\n');
    const client = await readFile(join(root, 'examples/basic/client.ts'), 'utf8');
    const mutate = (from: string, to: string) => {
      expect(client).toContain(from);
      return client.replace(from, to);
    };
    const errors = await typeErrors({
      'client.ts': client,
      'wrong-field.ts': mutate("email: 'grace@example.com'", "mail: 'grace@example.com'"),
      'wrong-path.ts': mutate("api.GET('/api/v1/users/{id}'", "api.GET('/api/v1/user/{id}'"),
      'wrong-param.ts': mutate('query: { limit: 10 }', "query: { limit: 'ten' }"),
      'wrong-result.ts': mutate('(user) => user.name', '(user) => user.fullName'),
    });
    expect(errors['*']).toEqual([]);
    expect(errors['client.ts']).toEqual([]);
    expect(errors['wrong-field.ts']?.join('\n')).toMatch(/'mail' does not exist/);
    expect(errors['wrong-path.ts']?.join('\n')).toMatch(/"\/api\/v1\/user\/\{id\}"/);
    expect(errors['wrong-param.ts']?.join('\n')).toMatch(
      /'string' is not assignable to type 'number'/,
    );
    expect(errors['wrong-result.ts']?.join('\n')).toMatch(/'fullName' does not exist/);
  });

  describe('served on 127.0.0.1', () => {
    let app: App;
    let baseUrl: string;
    beforeAll(async () => {
      app = await exampleApp({ env: 'development' });
      await app.ready();
      baseUrl = await app.fastify.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(() => app.close());

    it('answers the example client as its document says', async () => {
      // The id comes from the database's sequence: any number, shown by the name read back.
      expect(await tour(baseUrl)).toEqual({
        createdId: expect.any(Number),
        fetchedName: 'Grace Hopper',
        listedNames: ['Ada Lovelace', 'Grace Hopper'],
        deleteStatus: 204,
        afterDeleteCode: 'NOT_FOUND',
        withoutTokenStatus: 401,
      });
    });
  });
});
