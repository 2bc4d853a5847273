import { describe, expect, it } from 'vitest';
import type { MetricsCollector, Tracer, Translator } from '../../src/extend/index.js';
import type { Module } from '../../src/index.js';
import { testApp } from './helpers.js';

describe('what the App refuses at registration', () => {
  it('names the method a tracer, a metrics collector, a translator or a module lacks', () => {
    const { app } = testApp();
    expect(() => app.setTracer({} as Tracer)).toThrow('a tracer must have a start(name) method');
    expect(() => app.setMetricsCollector(null as unknown as MetricsCollector)).toThrow(
      'a metrics collector must have a recordRequest(metric) method',
    );
    expect(() => app.setTranslator({ t: () => '' } as unknown as Translator)).toThrow(
      'a translator must have t(locale, key, ...args) and locales() methods',
    );
    expect(() => app.use({ register: 'x' } as unknown as Module)).toThrow(
      'a module must have a register(app) method',
    );
  });

  it('takes a translator that has both methods', () => {
    const { app } = testApp();
    expect(() => app.setTranslator({ t: () => '', locales: () => ['en'] })).not.toThrow();
  });
});
