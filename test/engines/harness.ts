/**
 * The harness of the engine suite: an App on the engine under test, listening on a real socket
 * of 127.0.0.1, its JSON log and its metrics kept in memory, and a node:http client that sends
 * exactly what it is given (one connection per request, nothing decompressed or normalised).
 * @module
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { vi } from 'vitest';
import type { RequestMetric } from '../../src/contracts.js';
import { App, type AppOptions } from '../../src/index.js';
import { LogFormat, newLoggerWithFormat } from '../../src/logger/index.js';

/** The engines the suite runs on. */
export type EngineName = 'fastify' | 'bun';

/** One answer, read to its end. */
export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body's bytes, as they came (node:http decompresses nothing). */
  body: Buffer;
  /** The body as UTF-8 text. */
  text: string;
  /** The body parsed as JSON (throws when it is not JSON). */
  json(): unknown;
}

/** What a request sends besides its path. */
export interface Send {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as given; an object is sent as JSON with its content type unless one is given. */
  body?: string | Buffer | object;
}

/** A logged JSON entry. */
export type Entry = Record<string, unknown>;

/** An app made for one engine, its log and metrics in memory. */
export interface EngineApp {
  readonly app: App;
  readonly entries: Entry[];
  readonly metrics: RequestMetric[];
  /** The request-log entries (those with a method). */
  requestEntries(): Entry[];
}

/** An app that listens: its port and a client for it. */
export interface Served extends EngineApp {
  readonly port: number;
  /** Sends one request on a fresh connection and reads the whole answer. */
  send(path: string, init?: Send): Promise<Answer>;
  /** Closes the app (the graceful shutdown); resolves what close() resolves, once listen() ends. */
  close(): Promise<boolean>;
}

/**
 * A new App on `engine`: `engine: 'bun'` is passed only for the Bun engine, so the Fastify run
 * checks the default. Options the engine does not know yet are passed through untyped.
 */
export function engineApp(engine: EngineName, options: Partial<AppOptions> = {}): EngineApp {
  const entries: Entry[] = [];
  const logger = newLoggerWithFormat(false, LogFormat.JSON).withWriter({
    write(chunk: string) {
      for (const line of chunk.split('\n')) if (line) entries.push(JSON.parse(line) as Entry);
    },
  });
  const metrics: RequestMetric[] = [];
  const app = new App({
    serviceName: 'engine-suite',
    port: 0,
    host: '127.0.0.1',
    env: 'staging',
    logger,
    ...(engine === 'bun' ? ({ engine: 'bun' } as Partial<AppOptions>) : {}),
    ...options,
  });
  app.setMetricsCollector({ recordRequest: (m) => void metrics.push(m) });
  return { app, entries, metrics, requestEntries: () => entries.filter((e) => 'method' in e) };
}

const open = new Set<Served>();

/** Closes every app a test left listening (a failed test must not leave a port open). */
export async function closeAll(): Promise<void> {
  await Promise.all([...open].map((s) => s.close()));
}

/**
 * Builds the app (so that a refusal at startup throws here rather than through listen(), whose
 * failures exit the process), then listens on a free port and waits until it is bound.
 */
export async function listen(made: EngineApp): Promise<Served> {
  const { app } = made;
  await app.ready();
  const listening = app.listen();
  let failed: unknown;
  listening.catch((err: unknown) => {
    failed = err;
  });
  await vi.waitFor(
    () => {
      if (failed) throw failed;
      if (app.address === undefined) throw new Error('not bound yet');
    },
    { timeout: 5_000, interval: 2 },
  );
  if (failed) throw failed;
  const port = Number(new URL(app.address as string).port);
  let closing: Promise<boolean> | undefined;
  const served: Served = {
    ...made,
    port,
    send: (path, init) => send(port, path, init),
    close() {
      closing ??= app.close().then(async (ok) => {
        await listening;
        open.delete(served);
        return ok;
      });
      return closing;
    },
  };
  open.add(served);
  return served;
}

/** Sends one request to 127.0.0.1:`port` on a connection of its own. */
export function send(port: number, path: string, init: Send = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...init.headers };
  let body: string | Buffer | undefined;
  if (init.body === undefined || typeof init.body === 'string' || Buffer.isBuffer(init.body)) {
    body = init.body;
  } else {
    body = JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, method: init.method ?? 'GET', headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('error', reject);
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          const text = bytes.toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: bytes,
            text,
            json: () => JSON.parse(text) as unknown,
          });
        });
      },
    );
    req.setTimeout(5_000, () => req.destroy(new Error(`${path}: no answer within 5 s`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** Waits (bounded) until the app has logged `count` request entries and recorded as many metrics. */
export async function settled(made: EngineApp, count: number): Promise<void> {
  await vi.waitFor(
    () => {
      if (made.requestEntries().length < count || made.metrics.length < count) {
        throw new Error(
          `${made.requestEntries().length} request entries and ${made.metrics.length} metrics, waiting for ${count}`,
        );
      }
    },
    { timeout: 2_000, interval: 2 },
  );
}
