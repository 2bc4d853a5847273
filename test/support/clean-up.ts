import type { ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';

/**
 * After an end-to-end test: kills whatever of its service's process group still runs (should the
 * test fail midway) and removes its scratch folder.
 */
export async function cleanUp(dir: string | undefined, server: ChildProcess | undefined) {
  try {
    if (server?.pid) process.kill(-server.pid, 'SIGKILL');
  } catch {
    // ESRCH: the group has already exited.
  }
  if (dir) await rm(dir, { recursive: true, force: true });
}
