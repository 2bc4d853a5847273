// src/docs/components.ts recognises the definitions Zod makes up for an unnamed recursive
// schema by their names, `__schema<n>`. This pins that name, so a Zod upgrade that changes it
// fails here instead of silently leaking `__schema0` components into every document.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { get } from '../../src/index.js';
import { testApp } from '../app/helpers.js';

interface Tree {
  label: string;
  kids: Tree[];
}
const Tree: z.ZodType<Tree> = z.object({
  label: z.string(),
  get kids() {
    return z.array(Tree);
  },
});

describe("Zod's names for unnamed definitions", () => {
  it('are __schema<n> for a recursive schema without an id, nested in another schema', () => {
    const json = z.toJSONSchema(z.object({ tree: Tree }), { target: 'draft-2020-12' }) as {
      $defs?: Record<string, unknown>;
    };
    expect(Object.keys(json.$defs ?? {})).toEqual([expect.stringMatching(/^__schema\d+$/)]);
  });

  it('never reach the document: the definition gets a name made from its route', async () => {
    const { app } = testApp();
    app.addRoutes(
      get('/forest', { responses: { 200: z.object({ tree: Tree }) } }, () => ({
        tree: { label: 'a', kids: [] },
      })),
    );
    const text = JSON.stringify(await app.openapi());
    expect(text).not.toContain('__schema');
    expect(Object.keys((await app.openapi()).components.schemas)).toContain(
      'GetForestResponse200schema0',
    );
  });
});
