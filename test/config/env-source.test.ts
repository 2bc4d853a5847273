import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/index.js';

describe('the env when config.env is absent', () => {
  it('is NODE_ENV when it names an env, so NODE_ENV=production turns the docs off', () => {
    const prod = resolveConfig({ serviceName: 'svc' }, 'production');
    expect([prod.env, prod.envFrom, prod.isProduction, prod.docs.enabled]).toEqual([
      'production',
      'NODE_ENV',
      true,
      false,
    ]);
    expect(resolveConfig({ serviceName: 'svc' }, 'staging').env).toBe('staging');
    expect(resolveConfig({ serviceName: 'svc' }, 'development').envFrom).toBe('NODE_ENV');
  });

  it('is development, said to be the default, when NODE_ENV is unset or names no env', () => {
    for (const nodeEnv of [undefined, 'test', 'Production', '']) {
      const c = resolveConfig({ serviceName: 'svc' }, nodeEnv);
      expect([c.env, c.envFrom], String(nodeEnv)).toEqual(['development', 'default']);
    }
  });

  it('is config.env when given, whatever NODE_ENV says', () => {
    const c = resolveConfig({ serviceName: 'svc', env: 'development' }, 'production');
    expect([c.env, c.envFrom, c.docs.enabled]).toEqual(['development', 'config', true]);
  });

  it('reads process.env.NODE_ENV by default', () => {
    const before = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      expect(resolveConfig({ serviceName: 'svc' }).envFrom).toBe('NODE_ENV');
    } finally {
      process.env.NODE_ENV = before;
    }
  });
});
