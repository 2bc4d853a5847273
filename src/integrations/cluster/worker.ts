import { SHUTDOWN } from './ipc.js';

/**
 * The worker's side of the shutdown: the primary asks over IPC, and the worker sends itself
 * SIGTERM, so the App's own signal handling runs. A worker that already got a signal of its
 * own (Ctrl+C reaches the whole process group) is not sent a second one, which the App would
 * take as "exit now".
 */
export function followPrimary(): void {
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    signalled = true;
    // Nothing else listens (no App is serving): do what the signal would have done.
    if (process.listenerCount(signal) === 1) process.exit(0);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  process.on('message', (message: unknown) => {
    if ((message as { type?: unknown } | null)?.type !== SHUTDOWN || signalled) return;
    signalled = true;
    process.kill(process.pid, 'SIGTERM');
  });
}
