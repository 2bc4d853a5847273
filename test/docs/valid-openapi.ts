// What the tests call a valid document: it passes @scalar/openapi-parser's OpenAPI 3.1
// validation, and every local $ref resolves (the parser misses a ref to a missing component
// when `components.schemas` itself exists).
import { validate } from '@scalar/openapi-parser';

function refsIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refsIn(v, out);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string') out.push(v);
      else refsIn(v, out);
    }
  }
  return out;
}

function resolves(doc: unknown, ref: string): boolean {
  if (!ref.startsWith('#/')) return false;
  let at: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof at !== 'object' || at === null || !(key in at)) return false;
    at = (at as Record<string, unknown>)[key];
  }
  return true;
}

/** Everything wrong with `doc` as an OpenAPI 3.1 document; empty when it is valid. */
export async function openApiProblems(doc: object): Promise<string[]> {
  const { errors = [] } = await validate(structuredClone(doc) as Record<string, unknown>);
  const problems = errors.map((e) => `${e.path ?? ''} ${e.message}`.trim());
  for (const ref of new Set(refsIn(doc))) {
    if (!resolves(doc, ref)) problems.push(`unresolved $ref ${ref}`);
  }
  return problems;
}
