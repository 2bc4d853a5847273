// The App reaches cookies, compression and static files through a table the package entry
// fills (src/features.ts). This file imports the App past the entry, in a module graph of its
// own: the table is empty, and the App says so instead of failing on an undefined.
import { describe, expect, it } from 'vitest';
import { App } from '../../src/app.js';
import { LogFormat, newLoggerWithFormat } from '../../src/logger/index.js';

describe('the App imported past the package entry', () => {
  it('refuses to start without the features table, naming the entry to import it from', () => {
    const logger = newLoggerWithFormat(false, LogFormat.JSON).withWriter({ write() {} });
    expect(() => new App({ serviceName: 'svc', logger })).toThrow(
      "Keelson's features are not installed: import App from 'keelson'",
    );
  });
});
