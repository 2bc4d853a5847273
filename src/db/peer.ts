import { importPeer } from '../require-peer.js';

/** node-postgres, loaded when a `postgres://` URL is used; names `npm install pg` when absent. */
export function loadPg() {
  return importPeer('pg', 'keelson/db', () => import('pg'));
}

/** PGlite, loaded when no URL (or `memory://`) is used; names the install command when absent. */
export function loadPglite() {
  return importPeer('@electric-sql/pglite', 'keelson/db', () => import('@electric-sql/pglite'));
}
