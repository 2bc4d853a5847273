import { importPeer } from '../../require-peer.js';

/** prom-client, loaded once; a PeerMissingError naming `npm install prom-client` when absent. */
export const promClient = await importPeer(
  'prom-client',
  'keelson/prometheus',
  () => import('prom-client'),
);
