/**
 * The two rules verifyContract applies beyond the document's statuses: a server error is a
 * failure unless the route itself declares it, and a valid request must not be refused unless
 * the refusal was one the request could not avoid.
 * @module
 */
import { contributionOf, middlewareAround } from '../docs/middleware.js';
import { documentedOperations } from '../docs/openapi.js';
import type { OpenApiDocument, OperationObject } from '../docs/types.js';
import type { HttpMethod } from '../routing/types.js';
import type { DerivedRequest } from './requests.js';

/** Refusals that depend on state the request cannot set; excused when the route declares them. */
const STATEFUL = new Set([409, 410, 412, 423, 428, 429]);

/**
 * The 5xx statuses `method path` declares itself. In a document Keelson built, every operation
 * lists 500 for any error a handler throws; that one counts only when the route (its `errors`,
 * its `responses`, its own or its scope's middleware) names it. In another document, a status
 * listed by number counts; the `5XX` range never does.
 */
export function serverErrorsOf(doc: OpenApiDocument, path: string, method: string): Set<number> {
  const op = doc.paths[path]?.[method.toLowerCase()];
  const listed = Object.keys(op?.responses ?? {})
    .filter((s) => /^5\d\d$/.test(s))
    .map(Number);
  const documented = documentedOperations(doc);
  if (!documented) return new Set(listed);
  const entry = documented.find((d) => d.template === path && d.method === method)?.entry;
  if (!entry) return new Set(listed);
  const o = entry.def.options;
  const declares500 =
    (o.errors ?? []).includes(500) ||
    Object.keys(o.responses ?? {}).includes('500') ||
    contributionOf(middlewareAround(entry, []), entry.method as HttpMethod).responses.has(500);
  return new Set(listed.filter((s) => s !== 500 || declares500));
}

/** A short excerpt of an answer's body, to say why it refused. */
function excerpt(body: string): string {
  const text = body.replace(/\s+/g, ' ').trim();
  return text ? `: ${text.length > 160 ? `${text.slice(0, 157)}...` : text}` : '';
}

/** Whether `op` states `status` by number (not through `4XX` or `default`). */
function declares(op: OperationObject, status: number): boolean {
  return String(status) in op.responses;
}

/**
 * Why a 4xx answer to a valid request is a failure, or undefined when the request could not
 * have avoided it: a 401/403 the operation declares (credentials are the test's to give, with
 * `headers` or `setup`); any refusal of a request lacking a part it cannot build (a multipart
 * body); a 404 when a path value was made up rather than returned by a response
 * or given as a fixture; a state-dependent refusal (409, 412, 429…) the operation declares.
 */
export function refusal(
  op: OperationObject,
  req: DerivedRequest,
  status: number,
  body: string,
): string | undefined {
  if (req.invalid || req.incomplete || status < 400 || status >= 500) return undefined;
  if ((status === 401 || status === 403) && declares(op, status)) return undefined;
  if (status === 404 && !req.known) return undefined;
  if (STATEFUL.has(status) && declares(op, status)) return undefined;
  return `valid request refused: ${status}${excerpt(body)}`;
}

/** Why a 5xx answer is a failure, or undefined when the route declares that status. */
export function serverFailure(
  declared: ReadonlySet<number>,
  status: number,
  body: string,
): string | undefined {
  if (status < 500 || declared.has(status)) return undefined;
  return `server error ${status}, which the route does not declare${excerpt(body)}`;
}
