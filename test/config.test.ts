import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULTS, type KConfig, resolveConfig } from '../src/config/index.js';

/** Resolves `{ serviceName: 'svc', ...extra }`, letting tests pass values KConfig forbids. */
function resolveWith(extra: Record<string, unknown>) {
  return resolveConfig({ serviceName: 'svc', ...extra } as KConfig);
}

/** The ConfigError that resolving `config` throws; fails the test when nothing is thrown. */
function errorFor(config: unknown): ConfigError {
  try {
    resolveConfig(config as KConfig);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected resolveConfig to throw, it returned');
}

function errorWith(extra: Record<string, unknown>): ConfigError {
  return errorFor({ serviceName: 'svc', ...extra });
}

describe('resolveConfig defaults', () => {
  it('fills every default when only serviceName is given', () => {
    expect(resolveConfig({ serviceName: 'users-api' })).toEqual({
      serviceName: 'users-api',
      port: 3000,
      env: 'development',
      envFrom: 'default',
      host: '0.0.0.0',
      version: '1.0.0',
      disableHealth: false,
      docs: {
        path: '/docs',
        title: 'users-api',
        version: '1.0.0',
        servers: [],
        tags: [],
        head: true,
        builtins: true,
        enabled: true,
      },
      health: { timeoutMs: 800, cacheMs: 0 },
      bodyLimit: 1_048_576,
      shutdownTimeoutMs: 10_000,
      drainDelayMs: 0,
      sendTimeoutMs: 30_000,
      keepAliveTimeoutMs: 72_000,
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      isProduction: false,
    });
  });

  it('keeps every value that is given', () => {
    const resolved = resolveConfig({
      serviceName: 'users-api',
      port: 8080,
      env: 'staging',
      host: '127.0.0.1',
      version: '2.3.4',
      disableHealth: true,
      docs: {
        path: '/api/docs',
        title: 'Users API',
        version: '2.0.0',
        description: 'Manages users.',
        contact: { name: 'Team', url: 'https://example.com/team', email: 'team@example.com' },
        license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
        servers: ['https://api.example.com - Production', '/'],
        tags: [{ name: 'users', description: 'User accounts' }, { name: 'admin' }],
      },
      health: { timeoutMs: 250, cacheMs: 1_000 },
      bodyLimit: 10,
      shutdownTimeoutMs: 30_000,
      drainDelayMs: 5_000,
      sendTimeoutMs: 15_000,
      keepAliveTimeoutMs: 65_000,
      requestTimeoutMs: 20_000,
      headersTimeoutMs: 5_000,
    });
    expect(resolved).toEqual({
      serviceName: 'users-api',
      port: 8080,
      env: 'staging',
      envFrom: 'config',
      host: '127.0.0.1',
      version: '2.3.4',
      disableHealth: true,
      docs: {
        path: '/api/docs',
        title: 'Users API',
        version: '2.0.0',
        description: 'Manages users.',
        contact: { name: 'Team', url: 'https://example.com/team', email: 'team@example.com' },
        license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
        servers: [{ url: 'https://api.example.com', description: 'Production' }, { url: '/' }],
        tags: [{ name: 'users', description: 'User accounts' }, { name: 'admin' }],
        head: true,
        builtins: true,
        enabled: true,
      },
      health: { timeoutMs: 250, cacheMs: 1_000 },
      bodyLimit: 10,
      shutdownTimeoutMs: 30_000,
      drainDelayMs: 5_000,
      sendTimeoutMs: 15_000,
      keepAliveTimeoutMs: 65_000,
      requestTimeoutMs: 20_000,
      headersTimeoutMs: 5_000,
      isProduction: false,
    });
  });

  it('defaults the version to docs.version', () => {
    expect(resolveConfig({ serviceName: 'svc', docs: { version: '3.1.0' } }).version).toBe('3.1.0');
  });

  it('disables the docs and sets isProduction in production only', () => {
    const prod = resolveConfig({ serviceName: 'svc', env: 'production' });
    expect(prod.docs.enabled).toBe(false);
    expect(prod.isProduction).toBe(true);
    for (const env of ['development', 'staging'] as const) {
      const c = resolveConfig({ serviceName: 'svc', env });
      expect(c.docs.enabled).toBe(true);
      expect(c.isProduction).toBe(false);
    }
  });

  it('accepts port 0, meaning any free port', () => {
    expect(resolveConfig({ serviceName: 'svc', port: 0 }).port).toBe(0);
    expect(resolveConfig({ serviceName: 'svc', port: 65535 }).port).toBe(65535);
  });

  it('ignores keys it does not know, so other parts of the App can add options', () => {
    const resolved = resolveWith({ cors: { origin: '*' }, logger: false });
    expect(resolved).not.toHaveProperty('cors');
    expect(resolved.serviceName).toBe('svc');
  });

  it('does not share objects with the config it was given', () => {
    const contact = { name: 'Team' };
    const tags = [{ name: 'users' }];
    const resolved = resolveConfig({ serviceName: 'svc', docs: { contact, tags } });
    contact.name = 'changed';
    tags.push({ name: 'late' });
    expect(resolved.docs.contact).toEqual({ name: 'Team' });
    expect(resolved.docs.tags).toEqual([{ name: 'users' }]);
  });
});

describe('DEFAULTS', () => {
  it('holds every default, frozen all the way down', () => {
    expect(DEFAULTS).toEqual({
      port: 3000,
      env: 'development',
      host: '0.0.0.0',
      disableHealth: false,
      bodyLimit: 1_048_576,
      shutdownTimeoutMs: 10_000,
      drainDelayMs: 0,
      sendTimeoutMs: 30_000,
      keepAliveTimeoutMs: 72_000,
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      docs: { path: '/docs', version: '1.0.0', head: true, builtins: true },
      health: { timeoutMs: 800, cacheMs: 0 },
    });
    expect(Object.isFrozen(DEFAULTS)).toBe(true);
    expect(Object.isFrozen(DEFAULTS.docs)).toBe(true);
    expect(Object.isFrozen(DEFAULTS.health)).toBe(true);
  });
});

describe('ConfigError', () => {
  it('names the field, carries the bad value and the stable code CONFIG_INVALID', () => {
    const err = errorWith({ port: 70000 });
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe('ConfigError');
    expect(err.code).toBe('CONFIG_INVALID');
    expect(err.field).toBe('port');
    expect(err.value).toBe(70000);
    expect(err.message).toBe('invalid config: port must be an integer in 0..65535, got 70000');
  });
});

describe('resolveConfig rejects', () => {
  it.each([
    ['null', null, /^invalid config: config must be an object, got null$/],
    ['undefined', undefined, /^invalid config: config must be an object, got undefined$/],
    ['a string', 'svc', /^invalid config: config must be an object, got "svc"$/],
    ['an array', [], /^invalid config: config must be an object, got \[\]$/],
  ])('a config that is %s', (_name, config, message) => {
    const err = errorFor(config);
    expect(err.field).toBe('config');
    expect(err.message).toMatch(message);
  });

  it.each([
    [undefined, 'undefined'],
    ['', '""'],
    ['   ', '"   "'],
    [42, '42'],
  ])('serviceName %s', (serviceName, shown) => {
    const err = errorFor({ serviceName });
    expect(err.field).toBe('serviceName');
    expect(err.message).toBe(
      `invalid config: serviceName must be a non-empty string, got ${shown}`,
    );
  });

  it.each([
    [70000, '70000'],
    [65536, '65536'],
    [-1, '-1'],
    [80.5, '80.5'],
    [Number.NaN, 'NaN'],
    ['abc', '"abc"'],
    ['3000', '"3000"'],
    [null, 'null'],
  ])('port %s', (port, shown) => {
    expect(errorWith({ port }).message).toBe(
      `invalid config: port must be an integer in 0..65535, got ${shown}`,
    );
  });

  it.each([
    ['prod', '"prod"'],
    ['Production', '"Production"'],
    ['', '""'],
    [1, '1'],
  ])('env %s', (env, shown) => {
    expect(errorWith({ env }).message).toBe(
      `invalid config: env must be one of "development", "staging", "production", got ${shown}`,
    );
  });

  it.each([
    ['host', { host: '' }, 'a non-empty string', '""'],
    ['host', { host: '  ' }, 'a non-empty string', '"  "'],
    ['version', { version: 2 }, 'a non-empty string', '2'],
    ['disableHealth', { disableHealth: 'yes' }, 'a boolean', '"yes"'],
    ['health', { health: 5000 }, 'an object', '5000'],
    ['docs', { docs: '/docs' }, 'an object', '"/docs"'],
    ['docs.title', { docs: { title: '' } }, 'a non-empty string', '""'],
    ['docs.version', { docs: { version: 1 } }, 'a non-empty string', '1'],
    ['docs.description', { docs: { description: false } }, 'a string', 'false'],
  ])('a %s of the wrong type', (field, extra, expected, shown) => {
    const err = errorWith(extra);
    expect(err.field).toBe(field);
    expect(err.message).toBe(`invalid config: ${field} must be ${expected}, got ${shown}`);
  });

  it.each([
    ['drainDelayMs', (v: unknown) => ({ drainDelayMs: v })],
    ['health.cacheMs', (v: unknown) => ({ health: { cacheMs: v } })],
  ])('%s that is not an integer of 0 or more', (field, make) => {
    expect(resolveConfig({ serviceName: 'svc', ...(make(0) as object) })).toBeTruthy();
    for (const [value, shown] of [
      [-1, '-1'],
      [0.5, '0.5'],
      ['5', '"5"'],
    ] as const) {
      const err = errorWith(make(value));
      expect(err.field).toBe(field);
      expect(err.message).toBe(
        `invalid config: ${field} must be an integer of milliseconds in 0..2147483647, got ${shown}`,
      );
    }
  });

  it.each([
    ['health.timeoutMs', (v: unknown) => ({ health: { timeoutMs: v } })],
    ['bodyLimit', (v: unknown) => ({ bodyLimit: v })],
    ['shutdownTimeoutMs', (v: unknown) => ({ shutdownTimeoutMs: v })],
    ['sendTimeoutMs', (v: unknown) => ({ sendTimeoutMs: v })],
    ['keepAliveTimeoutMs', (v: unknown) => ({ keepAliveTimeoutMs: v })],
    ['requestTimeoutMs', (v: unknown) => ({ requestTimeoutMs: v })],
    ['headersTimeoutMs', (v: unknown) => ({ headersTimeoutMs: v })],
  ])('%s that is not a positive integer', (field, make) => {
    for (const [value, shown] of [
      [0, '0'],
      [-5, '-5'],
      [1.5, '1.5'],
      ['100', '"100"'],
      [Number.POSITIVE_INFINITY, 'Infinity'],
    ] as const) {
      const err = errorWith(make(value));
      expect(err.field).toBe(field);
      expect(err.message).toMatch(
        new RegExp(`^invalid config: ${field} must be a positive integer.*, got ${shown}$`),
      );
    }
  });

  it.each([
    ['health.timeoutMs', { health: { timeoutMs: 2 ** 31 } }],
    ['shutdownTimeoutMs', { shutdownTimeoutMs: 2 ** 31 }],
  ])('a %s too long for setTimeout, which would fire at once', (field, extra) => {
    expect(errorWith(extra).message).toBe(
      `invalid config: ${field} must be a positive integer of milliseconds up to 2147483647, got 2147483648`,
    );
  });
});

describe('resolveConfig checks the server timeouts together', () => {
  it('refuses a headersTimeoutMs longer than requestTimeoutMs, naming both values', () => {
    const err = errorWith({ requestTimeoutMs: 5_000, headersTimeoutMs: 6_000 });
    expect(err.field).toBe('headersTimeoutMs');
    expect(err.message).toBe(
      'invalid config: headersTimeoutMs must be at most requestTimeoutMs (5000), got 6000',
    );
  });
});

describe('resolveConfig accepts the largest timeout setTimeout honours', () => {
  it('takes 2147483647 ms', () => {
    expect(resolveWith({ shutdownTimeoutMs: 2_147_483_647 }).shutdownTimeoutMs).toBe(2_147_483_647);
  });
});

describe('docs.path', () => {
  it.each(['/docs', '/api/docs', '/a', '/v1.2/api-docs_x'])('accepts %s', (path) => {
    expect(resolveWith({ docs: { path } }).docs.path).toBe(path);
  });

  it.each([
    ['docs', '"docs"'],
    ['/docs/', '"/docs/"'],
    ['/', '"/"'],
    ['', '""'],
    ['//docs', '"//docs"'],
    ['/api//docs', '"/api//docs"'],
    ['/my docs', '"/my docs"'],
    ['/docs?x=1', '"/docs?x=1"'],
    ['/docs#top', '"/docs#top"'],
    [42, '42'],
  ])('rejects %s', (path, shown) => {
    const err = errorWith({ docs: { path } });
    expect(err.field).toBe('docs.path');
    expect(err.message).toMatch(/^invalid config: docs\.path must be a path like "\/docs"/);
    expect(err.message.endsWith(`, got ${shown}`)).toBe(true);
  });
});

describe('docs.servers', () => {
  it.each([
    [
      'https://api.example.com - Production',
      { url: 'https://api.example.com', description: 'Production' },
    ],
    [
      'http://localhost:3000 - Local - dev box',
      { url: 'http://localhost:3000', description: 'Local - dev box' },
    ],
    ['https://api.example.com/v1', { url: 'https://api.example.com/v1' }],
    ['/', { url: '/' }],
    ['/api/v1 - Same origin', { url: '/api/v1', description: 'Same origin' }],
    ['  https://a.example  ', { url: 'https://a.example' }],
  ])('accepts %j', (entry, server) => {
    expect(resolveWith({ docs: { servers: [entry] } }).docs.servers).toEqual([server]);
  });

  it.each([
    ['ftp://files.example.com - Files'],
    ['api.example.com - Production'],
    ['//api.example.com'],
    ['https://api.example.com -'],
    ['not a url'],
    [''],
    ['mailto:a@b.co'],
  ])('rejects %j, naming its index', (entry) => {
    const err = errorWith({ docs: { servers: ['/', entry] } });
    expect(err.field).toBe('docs.servers[1]');
    expect(err.message).toBe(
      `invalid config: docs.servers[1] must be "<url>" or "<url> - <description>", the URL absolute http(s) or a path starting with "/", got ${JSON.stringify(entry)}`,
    );
  });

  it('rejects an entry that is not a string', () => {
    const err = errorWith({ docs: { servers: [{ url: 'https://a.example' }] } });
    expect(err.field).toBe('docs.servers[0]');
    expect(err.message).toMatch(/, got \{"url": "https:\/\/a\.example"\}$/);
  });

  it('rejects servers that is not an array', () => {
    expect(errorWith({ docs: { servers: 'https://a.example' } }).message).toBe(
      'invalid config: docs.servers must be an array of strings, got "https://a.example"',
    );
  });
});

describe('docs.contact', () => {
  it.each(['a@b.co', 'first.last+tag@mail.example.com'])('accepts the email %s', (email) => {
    expect(resolveWith({ docs: { contact: { email } } }).docs.contact).toEqual({ email });
  });

  it.each(['team', 'team@', '@example.com', 'team@example', 'a b@example.com', ''])(
    'rejects the email %j',
    (email) => {
      const err = errorWith({ docs: { contact: { email } } });
      expect(err.field).toBe('docs.contact.email');
      expect(err.message).toBe(
        `invalid config: docs.contact.email must be an email address like "a@b.co", got ${JSON.stringify(email)}`,
      );
    },
  );

  it('rejects a contact url that is not absolute http(s)', () => {
    expect(errorWith({ docs: { contact: { url: 'example.com' } } }).message).toBe(
      'invalid config: docs.contact.url must be an absolute http(s) URL, got "example.com"',
    );
  });

  it('rejects a contact that is not an object', () => {
    expect(errorWith({ docs: { contact: 'team@example.com' } }).field).toBe('docs.contact');
  });
});

describe('docs.license', () => {
  it('accepts a license with a name only', () => {
    expect(resolveWith({ docs: { license: { name: 'MIT' } } }).docs.license).toEqual({
      name: 'MIT',
    });
  });

  it.each([
    [{}, 'undefined'],
    [{ name: '' }, '""'],
    [{ name: 7, url: 'https://x.example' }, '7'],
  ])('rejects %j for want of a name', (license, shown) => {
    const err = errorWith({ docs: { license } });
    expect(err.field).toBe('docs.license.name');
    expect(err.message).toBe(
      `invalid config: docs.license.name must be a non-empty string, got ${shown}`,
    );
  });

  it('rejects a license url that is not absolute http(s)', () => {
    expect(errorWith({ docs: { license: { name: 'MIT', url: 'LICENSE' } } }).field).toBe(
      'docs.license.url',
    );
  });
});

describe('docs.tags', () => {
  it('rejects a tag without a name, naming its index', () => {
    expect(errorWith({ docs: { tags: [{ name: 'a' }, { description: 'x' }] } }).message).toBe(
      'invalid config: docs.tags[1].name must be a non-empty string, got undefined',
    );
  });

  it('rejects two tags with the same name', () => {
    expect(errorWith({ docs: { tags: [{ name: 'users' }, { name: 'users' }] } }).message).toBe(
      'invalid config: docs.tags[1].name must be unique among the tags, got "users"',
    );
  });

  it('rejects tags that are not objects in an array', () => {
    expect(errorWith({ docs: { tags: ['users'] } }).field).toBe('docs.tags[0]');
    expect(errorWith({ docs: { tags: { name: 'users' } } }).field).toBe('docs.tags');
  });
});

describe('how a bad value is shown', () => {
  // Every value shown here is an invalid port; the message ends with its rendering.
  const shown = (port: unknown) => errorWith({ port }).message.replace(/^.*?, got /, '');

  it('renders Symbols, bigints, functions and -0 without crashing', () => {
    expect(shown(Symbol('p'))).toBe('Symbol(p)');
    expect(shown(3000n)).toBe('3000n');
    expect(shown(function getPort() {})).toBe('[Function getPort]');
    expect(errorWith({ bodyLimit: -0 }).message).toMatch(/, got -0$/);
  });

  it('marks a circular object instead of recursing', () => {
    const loop: Record<string, unknown> = { a: 1 };
    loop.self = loop;
    expect(shown(loop)).toBe('{"a": 1, "self": [Circular]}');
  });

  it('shows a shared but acyclic object in full each time', () => {
    const leaf = { n: 1 };
    expect(shown([leaf, leaf])).toBe('[{"n": 1}, {"n": 1}]');
    const list = [1];
    expect(shown({ a: list, b: list })).toBe('{"a": [1], "b": [1]}');
  });

  it('names the class of a non-plain object and abbreviates deep or long values', () => {
    expect(shown(new URL('https://a.example'))).toBe('URL {}');
    expect(shown({ a: { b: { c: 1 } } })).toBe('{"a": {"b": {…}}}');
    expect(shown([1, 2, 3, 4, 5, 6, 7])).toBe('[1, 2, 3, 4, 5, …]');
    const long = shown('x'.repeat(500));
    expect(long.length).toBeLessThanOrEqual(120);
    expect(long.endsWith('…')).toBe(true);
  });

  it('survives a Proxy whose traps throw', () => {
    const trap = () => {
      throw new Error('trap');
    };
    const hostile = new Proxy({}, { get: trap, ownKeys: trap, getPrototypeOf: trap });
    expect(shown(hostile)).toBe('<unprintable value>');
  });
});
