import { describe, expect, it } from 'vitest';
import { apiKeySchemeName } from '../../src/auth/docs.js';
import { apiKey, bearer } from '../../src/auth/index.js';
import { get } from '../../src/index.js';
import { testApp } from '../app/helpers.js';

// Security scheme names in the document: two guards reading different headers are two schemes.

const verify = (k: string) => (k === 'k' ? 'svc' : undefined);

describe('the security scheme names of guards', () => {
  it('names an apiKey scheme after its header, so two headers are two schemes', async () => {
    const { app } = testApp();
    app
      .group('/partners', apiKey({ header: 'X-Partner-Key', verify }))
      .addRoutes(get('/a', () => 'a'));
    app
      .group('/internal', apiKey({ header: 'x-internal-token', verify }))
      .addRoutes(get('/b', () => 'b'));
    app.group('/default', apiKey({ verify })).addRoutes(get('/c', () => 'c'));
    const doc = await app.openapi();
    expect(doc.components.securitySchemes).toEqual({
      partnerKeyAuth: { type: 'apiKey', in: 'header', name: 'x-partner-key' },
      internalTokenAuth: { type: 'apiKey', in: 'header', name: 'x-internal-token' },
      apiKeyAuth: { type: 'apiKey', in: 'header', name: 'x-api-key' },
    });
    expect(doc.paths['/partners/a']?.get?.security).toEqual([{ partnerKeyAuth: [] }]);
    expect(doc.paths['/internal/b']?.get?.security).toEqual([{ internalTokenAuth: [] }]);
    expect(doc.paths['/default/c']?.get?.security).toEqual([{ apiKeyAuth: [] }]);
  });

  it('keeps the name a guard is given', async () => {
    const { app } = testApp();
    app
      .group('/p', apiKey({ header: 'x-partner-key', verify, securityScheme: 'partner' }))
      .addRoutes(get('/a', () => 'a'));
    expect(Object.keys((await app.openapi()).components.securitySchemes ?? {})).toEqual([
      'partner',
    ]);
  });

  it('says which option renames one when two guards still share a name', async () => {
    const { app } = testApp();
    app
      .group('/a', apiKey({ header: 'x-one', verify, securityScheme: 'keyAuth' }))
      .addRoutes(get('/1', () => '1'));
    app
      .group('/b', apiKey({ header: 'x-two', verify, securityScheme: 'keyAuth' }))
      .addRoutes(get('/2', () => '2'));
    app.group('/c', bearer({ verify })).addRoutes(get('/3', () => '3'));
    await expect(app.openapi()).rejects.toThrow(
      'the security scheme "keyAuth" is declared differently by middleware "apiKeyGuard" (apiKey in header "x-one") and by middleware "apiKeyGuard" (apiKey in header "x-two"); give one of them another name: the securityScheme option of a guard (apiKey({ securityScheme })), or its key in describeMiddleware or docs.securitySchemes',
    );
  });
});

describe('apiKeySchemeName', () => {
  it('camel-cases the header without its x- prefix', () => {
    expect(apiKeySchemeName('x-api-key')).toBe('apiKeyAuth');
    expect(apiKeySchemeName('Api-Key')).toBe('apiKeyAuth');
    expect(apiKeySchemeName('X-Partner-Key')).toBe('partnerKeyAuth');
    expect(apiKeySchemeName('token')).toBe('tokenAuth');
    expect(apiKeySchemeName('x-')).toBe('apiKeyAuth');
    expect(apiKeySchemeName('x-Key_2.v')).toBe('key2VAuth');
  });
});
