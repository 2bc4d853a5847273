/**
 * `Expect: 100-continue`: the `100 Continue` goes out when something starts reading the body,
 * not when the request arrives (Node's default). A request refused before its body (a guard's
 * 401, a Content-Length over the limit, a type no parser takes) is answered without it, so the
 * client never sends the body it was holding back.
 * @module
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** Responses whose `100 Continue` is still owed, until the body is read or the answer goes out. */
const owed = new WeakSet<ServerResponse>();

/**
 * Listens to the server's `checkContinue` (which turns Node's immediate `100 Continue` off) and
 * hands the request on as any other, its `100 Continue` sent at the first read of its body.
 */
export function continueOnRead(server: Server): void {
  server.on('checkContinue', function continueLater(req: IncomingMessage, res: ServerResponse) {
    owed.add(res);
    const onListener = (event: string | symbol) => {
      if (event !== 'data' && event !== 'readable') return;
      req.removeListener('newListener', onListener);
      if (owed.delete(res) && !res.headersSent && !res.destroyed) res.writeContinue();
    };
    req.on('newListener', onListener);
    server.emit('request', req, res);
  });
}

/** The answer is going out: whatever reads the body from now on (to drop it) sends no `100`. */
export function forgoContinue(res: ServerResponse): void {
  owed.delete(res);
}
