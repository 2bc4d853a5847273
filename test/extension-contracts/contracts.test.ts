// Every contract suite, run on the core defaults and on each shipped adapter.
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { noopTracer } from '../../src/extend/index.js';
import { i18n } from '../../src/integrations/i18n/index.js';
import { openTelemetry } from '../../src/integrations/opentelemetry/index.js';
import { prometheus } from '../../src/integrations/prometheus/index.js';
import { scheduler } from '../../src/integrations/scheduler/index.js';
import { memoryLogger } from '../app/helpers.js';
import { metricsCollectorContract } from './metrics-collector.js';
import { schedulerContract } from './scheduler.js';
import { tracerContract } from './tracer.js';
import { translatorContract } from './translator.js';

const quiet = () => memoryLogger().logger;

tracerContract('the no-op tracer', () => noopTracer);
tracerContract('keelson/opentelemetry with an SDK', () =>
  openTelemetry({ tracer: new BasicTracerProvider().getTracer('contract') }),
);
tracerContract('keelson/opentelemetry without an SDK', () => openTelemetry());

translatorContract('keelson/i18n', () =>
  i18n({ catalogs: { en: { hi: 'Hi' }, 'pt-BR': { hi: 'Oi' } }, logger: quiet() }),
);

schedulerContract('keelson/scheduler', () => scheduler({ logger: quiet() }));

metricsCollectorContract('keelson/prometheus', () => prometheus({ defaultMetrics: false }));
metricsCollectorContract('a collector that keeps nothing', () => ({ recordRequest() {} }));
