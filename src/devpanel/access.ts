/**
 * Who the dev panel answers: clients on this machine, under a Host name that is this machine,
 * and never across origins. A page elsewhere can reach a local port through DNS rebinding
 * (its own name, resolved to 127.0.0.1) but never with an IP literal or `localhost` as Host.
 * @module
 */
import { isIP } from 'node:net';
import { forbidden } from '../errors/index.js';
import type { Middleware } from '../routing/types.js';

/** Who may use the panel, resolved. */
export interface PanelAccess {
  /** Serve clients that are not on loopback. */
  readonly allowRemote: boolean;
  /** Host names (lower case, no port) answered besides IP literals and `localhost`. */
  readonly hosts: ReadonlySet<string>;
}

/** Headers @fastify/cors sets on an answer; the panel's answers carry none. */
const CORS_HEADERS = [
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'access-control-expose-headers',
];

/** True for 127.0.0.0/8, ::1 and their IPv4-mapped forms. */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') ? isIP(v4) === 4 : address === '::1';
}

/** Headers a proxy adds to a request it forwards. */
const PROXY_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

/** True when a proxy says it forwarded the request. */
export function isForwarded(headers: Readonly<Record<string, unknown>>): boolean {
  return PROXY_HEADERS.some((name) => headers[name] !== undefined);
}

/** The host name of a Host header: lower case, without port or IPv6 brackets. */
export function hostName(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const h = header.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    return end === -1 ? undefined : h.slice(1, end);
  }
  const colon = h.indexOf(':');
  const name = colon === -1 ? h : h.slice(0, colon);
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

/** True when `name` (from hostName) is one the panel answers under. */
export function isPanelHost(name: string | undefined, access: PanelAccess): boolean {
  if (name === undefined || name === '') return false;
  return (
    isIP(name) !== 0 ||
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    access.hosts.has(name)
  );
}

/**
 * The middleware of every panel route: drops the CORS headers, then refuses (403) a client
 * that is not on loopback or came through a proxy unless `allowRemote`, and a Host that is not
 * this machine.
 */
export function panelAccess(access: PanelAccess): Middleware {
  return function devPanelAccess(c, next) {
    for (const name of CORS_HEADERS) c.reply.removeHeader(name);
    // The socket's peer, never X-Forwarded-For: a header cannot make a client local. A request
    // a proxy forwarded comes from wherever the proxy is reachable, though its peer is local.
    if (
      !access.allowRemote &&
      (!isLoopback(c.request.raw.socket.remoteAddress) || isForwarded(c.request.headers))
    ) {
      throw forbidden(
        'The dev panel answers clients on this machine only; set devPanel.allowRemote to serve others.',
      );
    }
    if (!isPanelHost(hostName(c.request.headers.host), access)) {
      throw forbidden(
        'The dev panel answers under localhost or an IP address only; add this name to devPanel.hosts.',
      );
    }
    return next();
  };
}
