/**
 * `verifyContract`: sends every operation of an app's document valid and invalid requests
 * through `app.inject()` and reports every response the document does not describe.
 * @module
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { OpenApiDocument } from '../docs/types.js';
import { Arbitraries } from './arbitrary.js';
import { ResponseChecker } from './check.js';
import { peers } from './peers.js';
import { type DerivedRequest, deriveRequests } from './requests.js';

/** What verifyContract needs of an app: its document and a way to serve requests without a port. */
export interface ContractSubject {
  /** The app's OpenAPI document. */
  openapi(): Promise<OpenApiDocument>;
  /** Serves one request without a socket. */
  inject(request: InjectOptions): Promise<LightMyRequestResponse>;
}

/** What `verifyContract` takes; everything has a default. */
export interface VerifyContractOptions {
  /** Headers sent with every request, e.g. credentials, so guarded routes answer more than 401. */
  headers?: Readonly<Record<string, string>>;
  /** Valid requests per operation. @default 10 */
  runs?: number;
  /** The fast-check seed: the same seed sends the same requests. @default 1 */
  seed?: number;
  /** Also send invalid requests (each must get a documented answer, and not a 2xx). @default true */
  invalid?: boolean;
  /** Which operations to verify, e.g. to leave out one that has side effects. @default all */
  include?: (method: string, path: string) => boolean;
}

/** One response that disagrees with the document. */
export interface ContractViolation {
  /** The operation, e.g. `GET /users/{id}`. */
  operation: string;
  /** The request that got the response. */
  request: { method: string; url: string; headers: Record<string, string>; payload?: string };
  /** What was wrong with the request, for an invalid one. */
  invalid?: string;
  /** The response's status. */
  status: number;
  /** What disagrees. */
  problems: string[];
}

/**
 * Every response that disagrees with the app's OpenAPI document (an undeclared status or media
 * type, a body its schema refuses, a 2xx to an invalid request), from valid and invalid requests
 * derived from each operation's schemas with fast-check and served through `app.inject()`.
 * Needs fast-check (an optional peer, usually a dev dependency). Event streams
 * (`text/event-stream` answers) are left out, HEAD aside: a valid request to one never ends.
 * @example expect(await verifyContract(app)).toEqual([]);
 */
export async function verifyContract(
  app: ContractSubject,
  { headers = {}, runs = 10, seed = 1, invalid = true, include }: VerifyContractOptions = {},
): Promise<ContractViolation[]> {
  const { fc, newAjv } = await peers();
  const doc = await app.openapi();
  const arbitraries = new Arbitraries(fc, doc.components.schemas);
  const checker = new ResponseChecker(newAjv(), doc);
  const violations: ContractViolation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [verb, op] of Object.entries(item)) {
      const method = verb.toUpperCase();
      if (include && !include(method, path)) continue;
      if (method !== 'HEAD' && answersStream(op)) continue;
      const requests = deriveRequests(path, method, op, { fc, arbitraries, runs, seed, invalid });
      for (const req of requests) {
        const sent = { ...req, headers: { ...req.headers, ...headers } };
        const res = await app.inject(toInject(sent));
        const problems = checker.check(op, method, {
          status: res.statusCode,
          contentType: res.headers['content-type'] as string | undefined,
          body: res.body,
        });
        if (req.invalid && res.statusCode < 300) {
          problems.push(`an invalid request (${req.invalid}) was answered ${res.statusCode}`);
        }
        if (problems.length)
          violations.push(violation(`${method} ${path}`, sent, res.statusCode, problems));
      }
    }
  }
  return violations;
}

/** Whether an operation's success answers are an event stream. */
function answersStream(op: { responses?: Record<string, { content?: object }> }): boolean {
  for (const [status, response] of Object.entries(op.responses ?? {})) {
    if (status.startsWith('2') && response.content && 'text/event-stream' in response.content) {
      return true;
    }
  }
  return false;
}

function toInject(req: DerivedRequest): InjectOptions {
  const options: InjectOptions = {
    method: req.method as InjectOptions['method'] & string,
    url: req.url,
    headers: req.headers,
  };
  if (req.payload !== undefined) options.payload = req.payload;
  return options;
}

function violation(
  operation: string,
  req: DerivedRequest,
  status: number,
  problems: string[],
): ContractViolation {
  const request: ContractViolation['request'] = {
    method: req.method,
    url: req.url,
    headers: req.headers,
  };
  if (req.payload !== undefined) request.payload = req.payload;
  const v: ContractViolation = { operation, request, status, problems };
  if (req.invalid) v.invalid = req.invalid;
  return v;
}
