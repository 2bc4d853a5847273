/**
 * Shared pieces of the auth tests: tokens, a local JWKS server, an app on a real socket.
 * @module
 */
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import type { App } from '../../src/index.js';
import { parseResponse, toBytes } from '../reliability/raw-http.js';

/** The HMAC secret of the tests. */
export const SECRET = 'a-test-secret-that-is-long-enough';

/** An HS256 token signed with `secret`, valid for an hour unless `claims` say otherwise. */
export function hsToken(claims: JWTPayload = {}, secret = SECRET, alg = 'HS256'): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg })
    .setIssuedAt()
    .setExpirationTime(claims.exp ?? '1h')
    .sign(new TextEncoder().encode(secret));
}

/** An unsigned token (`alg: none`) carrying `claims`. */
export function unsignedToken(claims: JWTPayload): string {
  const part = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.`;
}

/** A JWKS served on 127.0.0.1, with a signer for its RS256 key and a count of fetches. */
export interface JwksServer {
  url: string;
  fetches: () => number;
  sign(claims: JWTPayload): Promise<string>;
  close(): Promise<void>;
}

/** Starts a JWKS server holding one RS256 public key. */
export async function startJwks(): Promise<JwksServer> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  let fetches = 0;
  const server: Server = createServer((_req, res) => {
    fetches++;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    fetches: () => fetches,
    sign: (claims) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .setExpirationTime('1h')
        .sign(privateKey),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Serves `app` on 127.0.0.1 and sends one raw GET with `headers` (an array keeps repeats). */
export async function rawGet(
  app: App,
  path: string,
  headers: [string, string][],
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  await app.ready();
  await app.fastify.listen({ port: 0, host: '127.0.0.1' });
  try {
    const { port } = app.fastify.server.address() as AddressInfo;
    const request = toBytes({ method: 'GET', url: path });
    const head = request
      .toString('latin1')
      .replace('\r\n\r\n', `\r\n${headers.map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`);
    return await exchange(port, Buffer.from(head, 'latin1'));
  } finally {
    await app.fastify.close();
  }
}

// Writes the request without half-closing (a client that ends its side early may lose the
// answer), then reads until the server closes the `Connection: close` connection.
function exchange(port: number, request: Buffer): Promise<ReturnType<typeof parseResponse>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(5_000, () => socket.destroy(new Error('no answer in 5 s')));
    socket.on('data', (d: Buffer) => chunks.push(d));
    // A server that answers before reading all of a huge request (431) closes on a client still
    // writing: Node 24 then reports ECONNRESET after the answer arrived. The answer counts.
    socket.on('error', (err) =>
      chunks.length ? resolve(parseResponse(Buffer.concat(chunks))) : reject(err),
    );
    socket.on('close', () => resolve(parseResponse(Buffer.concat(chunks))));
    socket.write(request);
  });
}
