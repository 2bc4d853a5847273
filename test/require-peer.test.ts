import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { importPeer, PEER_MISSING, PeerMissingError } from '../src/require-peer.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const hidePeers = fileURLToPath(new URL('./integrations/fixtures/hide-peers.mjs', import.meta.url));

/** Imports a Keelson entry in a child process where `peers` look uninstalled. */
async function importWithout(entry: string, peers: string[]): Promise<string> {
  const script = `import(${JSON.stringify(`./src/integrations/${entry}/index.ts`)}).then(
    () => console.log('loaded'),
    (e) => console.log(JSON.stringify({ name: e.name, code: e.code, message: e.message })),
  )`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', hidePeers, '--import', 'tsx', '--input-type=module', '-e', script],
    { cwd: root, env: { ...process.env, HIDE_PEERS: peers.join(',') }, timeout: 15_000 },
  );
  return stdout.trim();
}

describe('importPeer', () => {
  it('names the package and the install command when the peer is not installed', async () => {
    const err = await importPeer(
      'keelson-no-such-peer',
      'keelson/example',
      () => import('keelson-no-such-peer' as string),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PeerMissingError);
    expect(err).toMatchObject({
      code: PEER_MISSING,
      peer: 'keelson-no-such-peer',
      message:
        "keelson/example needs the package 'keelson-no-such-peer', an optional peer dependency: npm install keelson-no-such-peer",
    });
    expect((err as Error).cause).toMatchObject({ code: 'ERR_MODULE_NOT_FOUND' });
  });

  it('rethrows any other failure as it is', async () => {
    const boom = new Error('the peer threw while loading');
    await expect(
      importPeer('prom-client', 'keelson/prometheus', () => Promise.reject(boom)),
    ).rejects.toBe(boom);
    // A missing module that is not the peer itself (a file the peer lacks) is not disguised.
    const other = Object.assign(new Error("Cannot find module '/x/lib.js'"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    await expect(
      importPeer('prom-client', 'keelson/prometheus', () => Promise.reject(other)),
    ).rejects.toBe(other);
  });

  it('returns the module when it is there', async () => {
    const mod = await importPeer('croner', 'keelson/scheduler', () => import('croner'));
    expect(typeof mod.Cron).toBe('function');
  });
});

describe('importing an integration without its library', () => {
  it.each([
    ['prometheus', 'prom-client'],
    ['opentelemetry', '@opentelemetry/api'],
    ['scheduler', 'croner'],
    ['queue', 'bullmq'],
  ])(
    'keelson/%s without %s fails naming the package and its install command',
    async (entry, peer) => {
      const out = JSON.parse(await importWithout(entry, [peer])) as Record<string, string>;
      expect(out).toEqual({
        name: 'PeerMissingError',
        code: PEER_MISSING,
        message: `keelson/${entry} needs the package '${peer}', an optional peer dependency: npm install ${peer}`,
      });
    },
  );

  it('loads when nothing is hidden', async () => {
    expect(await importWithout('prometheus', [])).toBe('loaded');
  });
});
