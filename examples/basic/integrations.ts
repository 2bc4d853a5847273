// The batteries of the example service: Prometheus metrics at /metrics, OpenTelemetry spans
// (exported once an OpenTelemetry SDK is registered), translated greetings at /hello, and a
// heartbeat job. Try:
//   curl localhost:3000/metrics
//   curl -H 'accept-language: pt-BR' 'localhost:3000/hello?name=Ada&count=3'
import { z } from 'zod';
import { type App, get } from '../../src/index.js';
import { i18n } from '../../src/integrations/i18n/index.js';
import { openTelemetry } from '../../src/integrations/opentelemetry/index.js';
import { prometheus } from '../../src/integrations/prometheus/index.js';
import { scheduler } from '../../src/integrations/scheduler/index.js';

const catalogs = {
  en: {
    hello: 'Hello, {name}!',
    unread: { zero: 'No new messages', one: 'One new message', other: '{count} new messages' },
  },
  pt: {
    hello: 'Olá, {name}!',
    unread: { one: 'Uma mensagem nova', other: '{count} mensagens novas' },
  },
  'pt-BR': { hello: 'Oi, {name}!' },
};

/** Adds metrics, tracing, translations and a scheduled job to the example app. */
export function addIntegrations(app: App): App {
  app.use(prometheus({ path: '/metrics' }));
  app.setTracer(openTelemetry({ name: 'users-api' }));
  app.setTranslator(i18n({ catalogs, logger: app.logger }));
  app.addRoutes(
    get(
      '/hello',
      {
        summary: 'A greeting in the language of Accept-Language',
        operationId: 'getHello',
        query: z.object({
          name: z.string().max(100).default('world'),
          count: z.coerce.number().int().min(0).default(0),
        }),
        responses: {
          200: z.object({ lang: z.string(), greeting: z.string(), unread: z.string() }),
        },
      },
      (c) => {
        const span = app.tracer.start('compose greeting', { parent: c.span });
        try {
          return {
            lang: c.lang,
            greeting: c.t('hello', { name: c.query.name }),
            unread: c.t('unread', { count: c.query.count }),
          };
        } finally {
          span.end();
        }
      },
    ),
  );
  const jobs = scheduler().add({
    name: 'heartbeat',
    schedule: '*/30 * * * * *',
    handler: () => app.logger.debug('heartbeat: %d routes served', app.routes.length),
  });
  return app.use(jobs); // registers it, its health checker, and logs to the app logger
}
