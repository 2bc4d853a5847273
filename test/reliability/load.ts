/**
 * A keep-alive load client on node:http that records, for every request, whether any byte of a
 * response came back and whether the whole body did: what autocannon and wrk cannot tell apart.
 * @module
 */
import * as http from 'node:http';

/** How one request ended. */
export type Outcome =
  /** Status 200 and the whole body, as Content-Length announced, ending in the marker. */
  | 'complete'
  /** A response started (headers came) but the body was cut short or garbled. */
  | 'truncated'
  /** The connection failed before any byte of a response came back. */
  | 'no-response'
  /** A new connection was refused: the server stopped listening. */
  | 'refused';

/** One request of the run. */
export interface Sent {
  id: string;
  outcome: Outcome;
  status?: number;
  error?: string;
}

/** Options of `runLoad`. */
export interface LoadOptions {
  port: number;
  /** Concurrent keep-alive connections (one request at a time on each). */
  connections: number;
  /** Stop sending after this many requests in all. */
  maxRequests: number;
  /** Stop sending after this long, in ms. */
  maxMs: number;
  /** A prefix for request ids, unique per run. */
  tag: string;
}

/** A load run: `stop()` asks the workers to finish; `done` resolves with every request. */
export interface LoadRun {
  done: Promise<Sent[]>;
  /** How many requests completed so far. */
  completed(): number;
  stop(): void;
}

function once(agent: http.Agent, port: number, id: string): Promise<Sent> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (s: Sent) => {
      if (!settled) {
        settled = true;
        resolve(s);
      }
    };
    const req = http.get(
      { host: '127.0.0.1', port, path: `/work/${id}`, agent, headers: { 'x-req': id } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('error', (err: NodeJS.ErrnoException) =>
          finish({ id, outcome: 'truncated', error: err.code ?? err.message }),
        );
        res.on('aborted', () => finish({ id, outcome: 'truncated', error: 'aborted' }));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const length = Number(res.headers['content-length']);
          let ok = res.statusCode === 200 && res.complete && body.length === length;
          if (ok) {
            try {
              const parsed = JSON.parse(body.toString('utf8')) as { id?: string; end?: string };
              ok = parsed.id === id && parsed.end === 'END';
            } catch {
              ok = false;
            }
          }
          finish({ id, outcome: ok ? 'complete' : 'truncated', status: res.statusCode ?? 0 });
        });
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      const code = err.code ?? err.message;
      finish({ id, outcome: code === 'ECONNREFUSED' ? 'refused' : 'no-response', error: code });
    });
  });
}

/** Starts `connections` workers, each sending one request after another on its connection. */
export function runLoad({ port, connections, maxRequests, maxMs, tag }: LoadOptions): LoadRun {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const results: Sent[] = [];
  let next = 0;
  let completed = 0;
  let stopped = false;
  const deadline = Date.now() + maxMs;
  const worker = async () => {
    while (!stopped && next < maxRequests && Date.now() < deadline) {
      const sent = await once(agent, port, `${tag}-${next++}`);
      results.push(sent);
      if (sent.outcome === 'complete') completed++;
      // The listener is gone: this worker is done.
      if (sent.outcome === 'refused') return;
    }
  };
  const done = Promise.all(Array.from({ length: connections }, worker)).then(() => {
    agent.destroy();
    return results;
  });
  return {
    done,
    completed: () => completed,
    stop: () => {
      stopped = true;
    },
  };
}
