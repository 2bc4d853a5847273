/**
 * Loading jose, the optional peer of keelson/auth, through the helper every adapter shares.
 * @module
 */

export { importPeer } from '../require-peer.js';
