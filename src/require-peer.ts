/** The `code` of the error `importPeer` throws when an optional peer is not installed. */
export const PEER_MISSING = 'KEELSON_PEER_MISSING';

/** Thrown when an entry of Keelson is imported without the optional library it runs on. */
export class PeerMissingError extends Error {
  /** Always `KEELSON_PEER_MISSING`. */
  readonly code = PEER_MISSING;
  /** The npm package that is missing, e.g. `prom-client`. */
  readonly peer: string;

  /** Made by `importPeer`; `entry` is the Keelson subpath that needs `peer`. */
  constructor(peer: string, entry: string, options?: ErrorOptions) {
    super(
      `${entry} needs the package '${peer}', an optional peer dependency: npm install ${peer}`,
      options,
    );
    this.name = 'PeerMissingError';
    this.peer = peer;
  }
}

/**
 * Imports an optional peer dependency; when it is not installed, throws a PeerMissingError that
 * names the package and the install command instead of a bare ERR_MODULE_NOT_FOUND. Any other
 * failure (the package is there but throws while loading) is rethrown as it is.
 * @example const { Registry } = await importPeer('prom-client', 'keelson/prometheus', () => import('prom-client'));
 */
export async function importPeer<T>(
  peer: string,
  entry: string,
  load: () => Promise<T>,
): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (isMissing(err, peer)) throw new PeerMissingError(peer, entry, { cause: err });
    throw err;
  }
}

function isMissing(err: unknown, peer: string): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as NodeJS.ErrnoException).code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  // "Cannot find package 'prom-client' imported from …": the peer itself, not a file it lacks.
  return err.message.includes(`'${peer}'`) || err.message.includes(`"${peer}"`);
}
