// An independent judge of the contract: Stoplight Prism, as a validating proxy in front of the
// kitchen-sink server, checks every request and answer against the document; and Redocly lints
// the document itself. Both are dev dependencies, run from node_modules.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundUrl } from '../../src/engine/engine.js';
import { Arbitraries } from '../../src/testing/arbitrary.js';
import { peers } from '../../src/testing/peers.js';
import { deriveRequests } from '../../src/testing/requests.js';
import { API_KEY, kitchenSink } from './kitchen-sink.js';

const BIN = join(process.cwd(), 'node_modules', '.bin');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function startPrism(doc: string, upstream: string, port: number): Promise<ChildProcess> {
  const args = ['proxy', '--errors', doc, upstream, '--host', '127.0.0.1', '--port', String(port)];
  const child = spawn(join(BIN, 'prism'), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Prism is listening')) resolve(child);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`prism exited with ${code}:\n${out}`)));
  });
}

describe('independent judges', () => {
  const app = kitchenSink();
  let dir = '';
  let docPath = '';
  let prism: ChildProcess | undefined;
  let prismUrl = '';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'keelson-contract-'));
    docPath = join(dir, 'openapi.json');
    await writeFile(docPath, JSON.stringify(await app.openapi()));
    await app.fastify.listen({ port: 0, host: '127.0.0.1' });
    const port = await freePort();
    prism = await startPrism(docPath, boundUrl(app.fastify), port);
    prismUrl = `http://127.0.0.1:${port}`;
  }, 60_000);

  afterAll(async () => {
    prism?.kill('SIGTERM');
    await app.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('Redocly lints the document with no errors', async () => {
    const run = promisify(execFile);
    const { stdout, stderr } = await run(join(BIN, 'redocly'), ['lint', docPath, '--format=json'], {
      maxBuffer: 16 * 1024 * 1024,
    }).catch((err: { stdout: string; stderr: string }) => err);
    const report = JSON.parse(stdout) as {
      problems: { severity: string; ruleId: string; message: string }[];
    };
    const errors = report.problems.filter((p) => p.severity === 'error');
    expect(errors, stderr).toEqual([]);
  }, 60_000);

  it('Prism, proxying every derived request, finds no answer that breaks the document', async () => {
    const { fc } = await peers();
    const doc = await app.openapi();
    const arbitraries = new Arbitraries(fc, doc.components.schemas);
    const violations: string[] = [];
    let sent = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [verb, op] of Object.entries(item)) {
        const method = verb.toUpperCase();
        const requests = deriveRequests(path, method, op, {
          fc,
          arbitraries,
          runs: 3,
          seed: 3,
          invalid: false,
        });
        for (const req of requests) {
          const init: RequestInit = {
            method,
            headers: { authorization: 'Bearer test', ...req.headers, 'x-kitchen-key': API_KEY },
          };
          if (req.payload !== undefined) init.body = req.payload;
          const res = await fetch(prismUrl + req.url, init);
          const body = method === 'HEAD' ? '' : await res.text();
          sent++;
          const found = res.headers.get('sl-violations');
          if (found || body.includes('stoplight.io/prism/errors')) {
            violations.push(`${method} ${req.url} → ${res.status}: ${found ?? body.slice(0, 300)}`);
          }
        }
      }
    }
    expect(sent).toBeGreaterThan(50);
    expect(violations).toEqual([]);
  }, 120_000);
});
