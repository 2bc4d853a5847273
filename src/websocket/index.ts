/**
 * WebSockets: `ws(path, {...})` routes on @fastify/websocket.
 * @module
 */
export { mountWebSocketRoutes } from './mount.js';
export {
  type WebSocketConnection,
  type WebSocketContext,
  type WebSocketOptions,
  type WebSocketRoute,
  websocketOf,
} from './route.js';
export { ws } from './ws.js';
