/**
 * A real PostgreSQL server for tests: a cluster made by `initdb` in a temporary directory
 * (as the `postgres` user when running as root), fsync off, on a free port of 127.0.0.1,
 * stopped and removed by `stop()`.
 * @module
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './redis.js';
import { systemTool } from './system-tool.js';

/** Debian installs the server's programs under /usr/lib/postgresql/<major>/bin, off PATH. */
function binDir(): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root)
    ? readdirSync(root)
        .filter((d) => existsSync(join(root, d, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return majors[0] ? join(root, majors[0], 'bin') : '/usr/lib/postgresql/bin';
}

const bin = binDir();

/** The PostgreSQL server programs on this machine, or why the PostgreSQL tests skip. */
export const postgresTool = systemTool(join(bin, 'initdb'), 'postgresql');

/** A running PostgreSQL server. */
export interface PostgresServer {
  readonly port: number;
  /** `postgres://postgres@127.0.0.1:<port>/<database>`, the `postgres` database by default. */
  url(database?: string): string;
  /** Creates an empty database and resolves its URL. */
  createDatabase(): Promise<string>;
  /** Stops the server (immediate shutdown) and removes its directory. */
  stop(): Promise<void>;
  /** Stops the server abruptly and starts it again on the same port and data. */
  restart(): Promise<void>;
  /** Stops the server (fast shutdown) without removing its data; `start()` brings it back. */
  halt(): Promise<void>;
  /** Starts a halted server again on the same port. */
  start(): Promise<void>;
}

const asRoot = process.getuid?.() === 0;

function run(cmd: string, args: string[]): void {
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
  const r = spawnSync(file, argv, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr || r.stdout}`);
}

let made = 0;

/** Initialises a cluster and starts it; resolves once it accepts connections. */
export async function startPostgres(): Promise<PostgresServer> {
  const dir = mkdtempSync(join(tmpdir(), 'keelson-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  if (asRoot) spawnSync('chown', ['postgres', dir]);
  run(join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '-A',
    'trust',
    '--no-sync',
    '-E',
    'UTF8',
    '--locale=C',
  ]);
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const args = [
      '-D',
      data,
      '-p',
      String(port),
      '-k',
      dir,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=200',
    ];
    const [file, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(bin, 'postgres'), ...args]]
      : [join(bin, 'postgres'), args];
    child = spawn(file, argv, { stdio: 'ignore' });
    const deadline = Date.now() + 15_000;
    for (;;) {
      const ready = spawnSync(join(bin, 'pg_isready'), [
        '-h',
        '127.0.0.1',
        '-p',
        String(port),
        '-U',
        'postgres',
      ]);
      if (ready.status === 0) return;
      if (child.exitCode !== null) throw new Error(`postgres exited with ${child.exitCode}`);
      if (Date.now() > deadline) throw new Error('postgres did not accept connections within 15 s');
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const kill = async (signal: NodeJS.Signals) => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => c.once('exit', () => resolve()));
    // runuser passes the signal on to postgres; SIGQUIT is an immediate shutdown, SIGINT a fast one.
    c.kill(signal);
    const timer = setTimeout(() => c.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  await start();
  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return {
    port,
    url,
    async createDatabase() {
      const name = `t_${process.pid}_${++made}_${Math.random().toString(36).slice(2, 8)}`;
      run(join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', name]);
      return url(name);
    },
    async stop() {
      await kill('SIGQUIT');
      rmSync(dir, { recursive: true, force: true });
    },
    async restart() {
      await kill('SIGQUIT');
      await start();
    },
    halt: () => kill('SIGINT'),
    start,
  };
}
