/**
 * The client address of a Bun-engine request: the socket's peer, or through the trusted
 * proxies' `X-Forwarded-For` as Fastify's `trustProxy` reads it (same rules, same library).
 * @module
 */
import proxyAddr from '@fastify/proxy-addr';
import type { TrustProxy } from '../engine.js';
import { type AddressOf, peerOf } from './request.js';

type Trust = (address: string, hop: number) => boolean;

function trustOf(option: TrustProxy | number): Trust {
  if (option === true) return () => true;
  // A hop count cannot check the peer it trusts: Fastify trusts nothing then.
  if (typeof option === 'number') return () => false;
  if (typeof option === 'string') return proxyAddr.compile(option.split(',').map((s) => s.trim()));
  return proxyAddr.compile(option as string[]);
}

/** How a request's address is found, given the peer's address of a request. */
export function addressFinder(trustProxy: TrustProxy | undefined): AddressOf {
  if (trustProxy === undefined || trustProxy === false) return peerOf;
  const trust = trustOf(trustProxy);
  return (request) => {
    const addresses = proxyAddr.all(
      { socket: { remoteAddress: peerOf(request) }, headers: request.headers } as never,
      trust,
    );
    return addresses[addresses.length - 1] ?? peerOf(request);
  };
}
