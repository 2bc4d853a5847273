import type { App, Module } from 'keelson';
import { __Entities__Controller } from './controller.js';
import { __Entities__Store } from './store.js';

/** The __name__ module: its store and its controller. */
export class __Entities__Module implements Module {
  register(app: App): void {
    app.registerController(new __Entities__Controller(new __Entities__Store()));
  }
}
