/**
 * The example service (examples/basic) for a test, its users in a database of the test's own:
 * a copy of a migrated template (`testDatabase()`) starts in about a second where a new
 * embedded database takes several.
 * @module
 */
import { type CreateAppOptions, createApp } from '../../examples/basic/app.js';
import { USERS_DATABASE } from '../../examples/basic/users.js';
import type { App } from '../../src/index.js';
import { testDatabase } from '../../src/testing/index.js';
import { memoryLogger } from '../app/helpers.js';

/**
 * `createApp(options)` of the example, on a fresh, migrated test database; it logs in memory
 * unless `options.logger` says otherwise, so the tests print no request lines.
 */
export async function exampleApp(options: Omit<CreateAppOptions, 'db'> = {}): Promise<App> {
  const db = await testDatabase(USERS_DATABASE);
  return createApp({ logger: memoryLogger().logger, ...options, db });
}
