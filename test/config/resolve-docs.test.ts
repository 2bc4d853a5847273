import { describe, expect, it } from 'vitest';
import { parseServer, timeoutMs } from '../../src/config/checks.js';
import { resolveDocs } from '../../src/config/resolve-docs.js';

const resolve = (docs: unknown) => resolveDocs(docs, 'svc', 'development');
const refusal = (docs: unknown): string => {
  try {
    resolve(docs);
  } catch (err) {
    return (err as Error).message;
  }
  return 'accepted';
};

describe('resolveDocs refuses', () => {
  it('each bad field, naming it and what it must be', () => {
    const cases: [unknown, string][] = [
      [{ contact: 'x' }, 'docs.contact must be an object, got "x"'],
      [{ contact: { name: 1 } }, 'docs.contact.name must be a string, got 1'],
      [{ contact: { url: 1 } }, 'docs.contact.url must be a string, got 1'],
      [{ contact: { url: 'ftp://x' } }, 'docs.contact.url must be an absolute http(s) URL'],
      [{ contact: { email: 1 } }, 'docs.contact.email must be a string, got 1'],
      [{ contact: { email: 'a@b.co x' } }, 'docs.contact.email must be an email address'],
      [{ license: 'MIT' }, 'docs.license must be an object with a name, got "MIT"'],
      [{ license: { name: '  ' } }, 'docs.license.name must be a non-empty string, got "  "'],
      [{ license: { name: 'MIT', url: 2 } }, 'docs.license.url must be a string, got 2'],
      [{ license: { name: 'MIT', url: 'x' } }, 'docs.license.url must be an absolute http(s) URL'],
      [{ tags: {} }, 'docs.tags must be an array of { name, description? }, got {}'],
      [{ tags: ['a'] }, 'docs.tags[0] must be an object with a name, got "a"'],
      [{ tags: [{ name: '' }] }, 'docs.tags[0].name must be a non-empty string, got ""'],
      [
        { tags: [{ name: 'a', description: 3 }] },
        'docs.tags[0].description must be a string, got 3',
      ],
      [{ servers: ['x y'] }, 'docs.servers[0] must be "<url>" or "<url> - <description>"'],
    ];
    for (const [docs, message] of cases) {
      expect(refusal(docs), JSON.stringify(docs)).toContain(`invalid config: ${message}`);
    }
  });
});

describe('resolveDocs keeps', () => {
  it('a contact and a license with only the fields given, the name as written', () => {
    const docs = resolve({
      contact: { email: 'a@b.co' },
      license: { name: ' MIT ', url: 'https://x.example/l' },
      tags: [{ name: 'users' }, { name: 'admin', description: 'Admin' }],
    });
    expect(docs.contact).toEqual({ email: 'a@b.co' });
    expect(docs.license).toEqual({ name: ' MIT ', url: 'https://x.example/l' });
    expect(docs.tags).toEqual([{ name: 'users' }, { name: 'admin', description: 'Admin' }]);
    expect(resolve({ contact: { name: 'Ada' } }).contact).toEqual({ name: 'Ada' });
  });

  it('security schemes and requirements when given, as copies', () => {
    const security = [{ bearer: ['read'] }];
    const docs = resolve({
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      security,
    });
    expect(docs.securitySchemes).toHaveProperty('bearer');
    expect(docs.security).toEqual([{ bearer: ['read'] }]);
    security[0]!.bearer.push('write');
    expect(docs.security).toEqual([{ bearer: ['read'] }]);
    expect(resolve({})).not.toHaveProperty('security');
    expect(resolve({})).not.toHaveProperty('securitySchemes');
  });

  it('refuses a path that is not a string', () => {
    expect(refusal({ path: 5 })).toContain('docs.path must be a path like "/docs"');
  });
});

describe('parseServer', () => {
  it('needs spaces around the dash, and trims the description', () => {
    expect(parseServer('https://a.example - Production ')).toEqual({
      url: 'https://a.example',
      description: 'Production',
    });
    expect(parseServer('/api  -  Local')).toEqual({ url: '/api', description: 'Local' });
    expect(parseServer('/api -x')).toBeUndefined();
    expect(parseServer('/api- x')).toBeUndefined();
    expect(parseServer('x /api - y')).toBeUndefined();
    expect(parseServer('/a')).toEqual({ url: '/a' });
  });
});

describe('timeoutMs', () => {
  it('takes up to the largest delay setTimeout honours, and not one more', () => {
    expect(timeoutMs(2_147_483_647, 'f', 1)).toBe(2_147_483_647);
    expect(() => timeoutMs(2_147_483_648, 'f', 1)).toThrow('f must be a positive integer');
  });
});

describe('docs.head and docs.builtins', () => {
  it('default to true and take booleans only', () => {
    expect(resolveDocs({ head: false, builtins: false }, 'svc', 'development')).toMatchObject({
      head: false,
      builtins: false,
    });
    expect(resolveDocs(undefined, 'svc', 'development')).toMatchObject({
      head: true,
      builtins: true,
    });
    expect(() => resolveDocs({ head: 'no' }, 'svc', 'development')).toThrow(
      'invalid config: docs.head must be a boolean, got "no"',
    );
    expect(() => resolveDocs({ builtins: 0 }, 'svc', 'development')).toThrow(
      'invalid config: docs.builtins must be a boolean, got 0',
    );
  });
});
