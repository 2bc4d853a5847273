/**
 * jose, the JOSE library behind `jwt()`, loaded once with an install hint when it is missing.
 * @module
 */
import type * as Jose from 'jose';
import { importPeer } from './peer.js';

/** The jose module. */
export const jose: typeof Jose = await importPeer('jose', 'keelson/auth', () => import('jose'));
