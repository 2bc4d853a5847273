import { importPeer } from '../../require-peer.js';

/** bullmq, loaded once; a PeerMissingError naming `npm install bullmq` when absent. */
export const bullmq = await importPeer('bullmq', 'keelson/queue', () => import('bullmq'));
