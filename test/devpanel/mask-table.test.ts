import { describe, expect, it } from 'vitest';
import { isSecretKey, maskSecrets, maskValue } from '../../src/devpanel/mask.js';
import { PEM_KEY, PLANTED } from './fixtures/planted.js';

// Planted secrets: each is shown nowhere in what the panel serves, whether its key gives it
// away or only its shape does.

describe('maskSecrets with planted secrets', () => {
  it.each(PLANTED)('hides %s', (_where, config, secret) => {
    expect(JSON.stringify(maskSecrets(config))).not.toContain(secret);
  });

  it('keeps what is not secret readable', () => {
    expect(
      maskSecrets({
        author: 'Ada',
        passive: true,
        bypassCache: false,
        url: 'https://api.example.com/v1?page=2',
        redis: 'redis://cache:6379/0',
        note: 'Basic usage: see the docs',
        cert: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----',
        compass: 'north',
      }),
    ).toEqual({
      author: 'Ada',
      passive: true,
      bypassCache: false,
      url: 'https://api.example.com/v1?page=2',
      redis: 'redis://cache:6379/0',
      note: 'Basic usage: see the docs',
      cert: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----',
      compass: 'north',
    });
  });

  it('masks the secret part of a value and keeps the rest', () => {
    expect(maskValue('postgres://user:password@host/db')).toBe('postgres://user:••••••@host/db');
    expect(maskValue('https://abc123@o1.ingest.sentry.io/2')).toBe(
      'https://••••••@o1.ingest.sentry.io/2',
    );
    expect(maskValue('Basic dXNlcjpzM2NyZXQ=')).toBe('Basic ••••••');
    expect(maskValue('a?api_key=k1&b=2')).toBe('a?api_key=••••••&b=2');
    expect(maskValue(`x ${PEM_KEY} y`)).toBe(
      'x -----BEGIN PRIVATE KEY-----••••••-----END PRIVATE KEY----- y',
    );
    expect(maskValue('-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE cut off')).toBe(
      '-----BEGIN EC PRIVATE KEY-----••••••-----END EC PRIVATE KEY-----',
    );
  });

  it('knows secret keys by part and by word', () => {
    for (const k of [
      'password',
      'dbPass',
      'DB_PASS',
      'pwd',
      'passphrase',
      'sentryDsn',
      'Authorization',
      'privateKey',
      'x-api-key',
      'sessionCookie',
    ])
      expect(isSecretKey(k), k).toBe(true);
    for (const k of ['author', 'passive', 'bypass', 'compass', 'host', 'port', 'database'])
      expect(isSecretKey(k), k).toBe(false);
  });
});

describe('maskValue on JSON text', () => {
  it('masks the string value of a secret-named field, escaped quotes included', () => {
    expect(maskValue('{"level":"info","password":"p\\"w","user":"ada","x-api-key": "k"}')).toBe(
      '{"level":"info","password":"••••••","user":"ada","x-api-key": "••••••"}',
    );
    expect(maskValue('{"author":"ada","count":3}')).toBe('{"author":"ada","count":3}');
  });
});
