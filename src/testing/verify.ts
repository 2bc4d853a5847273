/**
 * `verifyContract`: sends every operation of an app's document valid and invalid requests
 * through `app.inject()` and reports every response the document does not describe.
 * @module
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { OpenApiDocument } from '../docs/types.js';
import { Arbitraries } from './arbitrary.js';
import { ResponseChecker } from './check.js';
import { refusal, serverErrorsOf, serverFailure } from './judge.js';
import { peers } from './peers.js';
import { type DerivedRequest, deriveRequests } from './requests.js';
import { Bindings, orderOperations } from './state.js';

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
  /**
   * Values for path and query parameters, by name (`{ username: 'jake' }`), for what no response
   * returns: a value given here is known to exist, so a 404 to it is a violation.
   */
  fixtures?: Readonly<Record<string, unknown>>;
  /** Runs first: create what the test needs, log in and set a header, add fixtures. */
  setup?: (api: ContractSetup) => void | Promise<void>;
}

/** What `setup` gets: the app, and the headers and fixtures every request will use. */
export interface ContractSetup {
  /** Serves one request without a socket. */
  inject(request: InjectOptions): Promise<LightMyRequestResponse>;
  /** Headers sent with every request; set one to log in (`authorization`). */
  readonly headers: Record<string, string>;
  /** Path and query values by parameter name. */
  readonly fixtures: Record<string, unknown>;
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

/** What verifyContract reached of one operation. */
export interface OperationCoverage {
  /** The operation, e.g. `GET /users/{id}`. */
  operation: string;
  /** The statuses it answered, valid and invalid requests together, in order. */
  statuses: number[];
  /** Requests sent. */
  sent: number;
  /** Whether a request got a 2xx: its success answer was checked. */
  success: boolean;
  /** What it could not do, e.g. find values its schemas accept. */
  notes: string[];
}

/** What verifyContract reached: every operation, and the ones never answered with a 2xx. */
export interface ContractCoverage {
  /** Every operation verified, in the order it was sent. */
  operations: OperationCoverage[];
  /** The operations whose success answer was never reached (`GET /articles/{slug}`). */
  unreached: string[];
}

/**
 * verifyContract's answer: the violations, as an array (`toEqual([])` works as before), with
 * `violations` (the same array) and `coverage` as properties.
 */
export type ContractReport = ContractViolation[] & {
  /** Every response that disagrees with the document. */
  readonly violations: ContractViolation[];
  /** What was reached, and what was not. */
  readonly coverage: ContractCoverage;
};

/**
 * Every response that disagrees with the app's OpenAPI document (an undeclared status or media
 * type, a body its schema refuses, a 2xx to an invalid request, a 4xx to a valid one, a server
 * error the route does not declare), from requests derived from each operation's schemas with
 * fast-check and served through `app.inject()`. Operations run in resource order (create, read,
 * update, list, delete) and take path values from earlier responses through the document's
 * links. Needs fast-check (an optional peer, usually a dev dependency). Event streams
 * (`text/event-stream` answers) are left out, HEAD aside: a valid request to one never ends.
 * @example expect((await verifyContract(app)).violations).toEqual([]);
 */
export async function verifyContract(
  app: ContractSubject,
  options: VerifyContractOptions = {},
): Promise<ContractReport> {
  const { runs = 10, seed = 1, invalid = true, include } = options;
  const { fc, newAjv } = await peers();
  const doc = await app.openapi();
  const arbitraries = new Arbitraries(fc, doc.components.schemas);
  const checker = new ResponseChecker(newAjv(), doc);
  const accepts = checker.accepts.bind(checker);
  const headers: Record<string, string> = { ...options.headers };
  const fixtures: Record<string, unknown> = { ...options.fixtures };
  await options.setup?.({ inject: (r) => app.inject(r), headers, fixtures });
  const bindings = new Bindings(doc, fixtures);
  const violations: ContractViolation[] = [];
  const operations: OperationCoverage[] = [];
  for (const planned of orderOperations(doc)) {
    const { path, method, op } = planned;
    if (include && !include(method, path)) continue;
    if (method !== 'HEAD' && answersStream(op)) continue;
    const name = `${method} ${path}`;
    const given = bindings.given(op);
    const derive = { fc, arbitraries, runs, seed, invalid, given, accepts };
    const requests = deriveRequests(path, method, op, derive);
    const serverErrors = serverErrorsOf(doc, path, method);
    const statuses = new Set<number>();
    const notes: string[] = [];
    if (!requests.some((r) => !r.invalid))
      notes.push('no valid request: no sampled value satisfies its schemas');
    const lacking = requests.find((r) => r.incomplete)?.incomplete;
    if (lacking) notes.push(`valid requests are incomplete: ${lacking}`);
    for (const req of requests) {
      const sent = { ...req, headers: { ...req.headers, ...headers } };
      const res = await app.inject(toInject(sent));
      const status = res.statusCode;
      statuses.add(status);
      const problems = checker.check(op, method, {
        status,
        contentType: res.headers['content-type'] as string | undefined,
        body: res.body,
      });
      if (req.invalid && status < 300) {
        problems.push(`an invalid request (${req.invalid}) was answered ${status}`);
      }
      const why =
        serverFailure(serverErrors, status, res.body) ?? refusal(op, req, status, res.body);
      if (why) problems.push(why);
      if (problems.length) violations.push(violation(name, sent, status, problems));
      if (!req.invalid)
        bindings.record(planned, req, { status, headers: res.headers, body: res.body });
    }
    const list = [...statuses].sort((a, b) => a - b);
    const success = list.some((s) => s >= 200 && s < 300);
    operations.push({ operation: name, statuses: list, sent: requests.length, success, notes });
  }
  const unreached = operations.filter((o) => !o.success).map((o) => o.operation);
  return Object.defineProperties(violations, {
    violations: { value: violations },
    coverage: { value: { operations, unreached } },
  }) as ContractReport;
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
