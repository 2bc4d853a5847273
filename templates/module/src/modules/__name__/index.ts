import type { App, Module } from 'keelson';
import type { Database } from 'keelson/db';
import { __Entities__Controller } from './controller.js';
import { __Entities__Repository } from './repository.js';

/** The __name__ module: its repository (on the app's database) and its controller. */
export class __Entities__Module implements Module {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  register(app: App): void {
    app.registerController(new __Entities__Controller(new __Entities__Repository(this.#db)));
  }
}
