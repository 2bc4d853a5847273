/**
 * Starts fixtures/service.ts in a child process and follows its JSON log on stdout.
 * @module
 */
import { fileURLToPath } from 'node:url';
import { type ServiceProcess, startLogProcess } from '../support/log-process.js';

export { killAll, type ServiceProcess } from '../support/log-process.js';

const fixture = fileURLToPath(new URL('./fixtures/service.ts', import.meta.url));

/** Starts the service with `env` added to the environment. */
export function startService(env: Record<string, string> = {}): ServiceProcess {
  return startLogProcess(fixture, env);
}
