/**
 * WebSockets: `ws(path, {...})` routes on @fastify/websocket.
 * @module
 */
export { errorFrame, GOING_AWAY } from './connection.js';
export { mountWebSocketRoutes } from './mount.js';
export {
  type WebSocketConnection,
  type WebSocketContext,
  type WebSocketOptions,
  type WebSocketRoute,
  websocketOf,
  ws,
} from './route.js';
