// A TypeDoc plugin: names each entry point's module after the import path a user writes
// (`keelson`, `keelson/db`, …) rather than after its file under src/.
import { Converter } from 'typedoc';

const NAMES = {
  index: 'keelson',
  logger: 'keelson/logger',
  auth: 'keelson/auth',
  client: 'keelson/client',
  db: 'keelson/db',
  testing: 'keelson/testing',
  'integrations/prometheus': 'keelson/prometheus',
  'integrations/opentelemetry': 'keelson/opentelemetry',
  'integrations/i18n': 'keelson/i18n',
  'integrations/scheduler': 'keelson/scheduler',
  'integrations/queue': 'keelson/queue',
  'integrations/cluster': 'keelson/cluster',
};

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const module of context.project.children ?? []) {
      const name = NAMES[module.name.replace(/\/index$/, '')];
      if (name) module.name = name;
    }
  });
}
