import type { FastifyRequest } from 'fastify';
import type { AttributeValue } from '../contracts.js';
import { pathOf } from '../request/request-state.js';

/**
 * The attributes of a request's server span, after the stable HTTP semantic conventions:
 * method, route, path, scheme, server address and port, protocol version, user agent and
 * client address. Only computed when a tracer is set.
 */
export function serverSpanAttributes(
  request: FastifyRequest,
  route: string | undefined,
): Record<string, AttributeValue> {
  const attributes: Record<string, AttributeValue> = {
    'http.request.method': request.method,
    'url.path': pathOf(request.url),
    'url.scheme': request.protocol,
    'network.protocol.version': request.raw.httpVersion,
    'client.address': request.ip,
  };
  if (route) attributes['http.route'] = route;
  const host = request.hostname;
  if (host) attributes['server.address'] = host;
  const port = request.port;
  if (port) attributes['server.port'] = port;
  const agent = request.headers['user-agent'];
  if (agent) attributes['user_agent.original'] = agent;
  return attributes;
}
