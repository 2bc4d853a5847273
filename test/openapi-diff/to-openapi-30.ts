/**
 * Writes an OpenAPI 3.1 document of the pairs as OpenAPI 3.0.3, the newest version
 * openapi-diff 0.24 reads: `type: [T, 'null']` becomes `type: T, nullable: true`, `const` an
 * enum of one. Only what the pairs use.
 * @module
 */
import type { Doc } from './documents.js';

function convert(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(convert);
  if (typeof node !== 'object' || node === null) return node;
  const out: Doc = {};
  for (const [key, value] of Object.entries(node)) out[key] = convert(value);
  if (Array.isArray(out.type)) {
    const types = out.type.filter((t: string) => t !== 'null');
    if (types.length !== 1) throw new Error(`cannot write type ${JSON.stringify(out.type)} in 3.0`);
    out.type = types[0];
    if (types.length < (node as Doc).type.length) out.nullable = true;
  }
  if ('const' in out) {
    out.enum = [out.const];
    delete out.const;
  }
  return out;
}

/** The 3.0.3 form of a 3.1 document of the pairs. */
export function toOpenApi30(doc: Doc): Doc {
  return { ...(convert(doc) as Doc), openapi: '3.0.3' };
}
