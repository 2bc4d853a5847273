import { importPeer } from '../../require-peer.js';

/** @opentelemetry/api, loaded once; a PeerMissingError naming the install command when absent. */
export const otel = await importPeer(
  '@opentelemetry/api',
  'keelson/opentelemetry',
  () => import('@opentelemetry/api'),
);
