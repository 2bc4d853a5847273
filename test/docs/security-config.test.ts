import { describe, expect, it } from 'vitest';
import { type DocsSecurityScheme, resolveConfig } from '../../src/extend/index.js';
import { ConfigError } from '../../src/index.js';

function resolveSchemes(schemes: unknown) {
  return resolveConfig({
    serviceName: 'svc',
    docs: { securitySchemes: schemes as Record<string, DocsSecurityScheme> },
  }).docs.securitySchemes;
}

function errorOf(schemes: unknown): ConfigError {
  try {
    resolveSchemes(schemes);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('docs.securitySchemes', () => {
  it('is absent from the resolved config when not given', () => {
    expect(resolveConfig({ serviceName: 'svc' }).docs.securitySchemes).toBeUndefined();
  });

  it('keeps bearer, basic, apiKey and oauth2 schemes as given', () => {
    const schemes = {
      bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A JWT.' },
      basic: { type: 'http', scheme: 'basic' },
      key: { type: 'apiKey', in: 'cookie', name: 'sid' },
      oauth: {
        type: 'oauth2',
        flows: {
          authorizationCode: {
            authorizationUrl: 'https://auth.example.com/authorize',
            tokenUrl: '/oauth/token',
            refreshUrl: '/oauth/refresh',
            scopes: { read: 'Read things' },
          },
          clientCredentials: { tokenUrl: '/oauth/token', scopes: {} },
        },
      },
    };
    expect(resolveSchemes(schemes)).toEqual(schemes);
  });

  it.each([
    ['docs.securitySchemes', [], 'an object of name → scheme'],
    ['docs.securitySchemes', { 'my scheme': { type: 'http', scheme: 'bearer' } }, 'keyed by names'],
    ['docs.securitySchemes.a.type', { a: { type: 'mutualTLS' } }, '"http", "apiKey" or "oauth2"'],
    [
      'docs.securitySchemes.a.scheme',
      { a: { type: 'http', scheme: 'digest' } },
      '"bearer" or "basic"',
    ],
    [
      'docs.securitySchemes.a.bearerFormat',
      { a: { type: 'http', scheme: 'bearer', bearerFormat: '' } },
      'a non-empty string',
    ],
    [
      'docs.securitySchemes.a.in',
      { a: { type: 'apiKey', in: 'body', name: 'k' } },
      '"header", "query" or "cookie"',
    ],
    ['docs.securitySchemes.a.name', { a: { type: 'apiKey', in: 'header' } }, 'a non-empty string'],
    ['docs.securitySchemes.a.flows', { a: { type: 'oauth2', flows: {} } }, 'at least one flow'],
    [
      'docs.securitySchemes.a.flows.magic',
      { a: { type: 'oauth2', flows: { magic: {} } } },
      'one of implicit',
    ],
    [
      'docs.securitySchemes.a.flows.password.tokenUrl',
      { a: { type: 'oauth2', flows: { password: { scopes: {} } } } },
      'an absolute http(s) URL or a path',
    ],
    [
      'docs.securitySchemes.a.flows.implicit.scopes',
      { a: { type: 'oauth2', flows: { implicit: { authorizationUrl: '/auth' } } } },
      'an object of scope name',
    ],
    [
      'docs.securitySchemes.a.description',
      { a: { type: 'http', scheme: 'basic', description: 1 } },
      'a string',
    ],
  ])('names %s when it is wrong', (field, schemes, expected) => {
    const err = errorOf(schemes);
    expect(err.field).toBe(field);
    expect(err.message).toContain(`invalid config: ${field} must be ${expected}`);
  });
});
