import { importPeer } from '../../require-peer.js';

/** croner, loaded once; a PeerMissingError naming `npm install croner` when absent. */
export const croner = await importPeer('croner', 'keelson/scheduler', () => import('croner'));
