/**
 * The ping that finds a WebSocket peer gone silent (a client whose network vanished leaves no
 * close behind): without it such a connection, and all it holds, stays open for ever.
 * @module
 */
import type { WebSocket } from 'ws';

/**
 * Pings `socket` every `intervalMs`. A peer that has sent neither a pong nor a message since
 * the previous ping is given up: `onSilent` is called. While `isPaused()` (the server itself
 * has stopped reading) silence proves nothing: no verdict, and the next ping starts afresh.
 * Returns the function that stops it.
 */
export function startHeartbeat(
  socket: WebSocket,
  intervalMs: number,
  isPaused: () => boolean,
  onSilent: () => void,
): () => void {
  let heard = true;
  const alive = () => {
    heard = true;
  };
  socket.on('pong', alive);
  socket.on('message', alive);
  const timer = setInterval(function ping() {
    if (isPaused()) {
      heard = true;
      return;
    }
    if (!heard) {
      stop();
      onSilent();
      return;
    }
    heard = false;
    socket.ping();
  }, intervalMs);
  timer.unref();
  function stop(): void {
    clearInterval(timer);
    socket.off('pong', alive);
    socket.off('message', alive);
  }
  return stop;
}
