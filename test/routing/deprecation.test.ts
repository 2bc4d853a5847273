import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RequestMetric } from '../../src/contracts.js';
import { App, get, type Middleware, notFound } from '../../src/index.js';
import { deprecationHeaders } from '../../src/routing/deprecation.js';
import { requestEntries, testApp } from '../app/helpers.js';

// Deprecated routes and groups: the RFC 9745 / RFC 8594 headers, on errors too, the group
// options, and the log line and metrics record that say who still calls them.

const SINCE = new Date('2026-01-01T00:00:00Z');
const SUNSET = new Date('2027-06-30T23:59:59Z');

describe('deprecation headers', () => {
  it('gives Deprecation as a structured date, Sunset as an HTTP-date and Link by relation', () => {
    expect(
      deprecationHeaders(
        { since: SINCE, sunset: SUNSET, link: '/v2/users', info: 'https://example.com/v1' },
        new Date(),
      ),
    ).toEqual({
      deprecation: '@1767225600',
      sunset: 'Wed, 30 Jun 2027 23:59:59 GMT',
      link: '</v2/users>; rel="successor-version", <https://example.com/v1>; rel="deprecation"',
    });
  });

  it('dates a deprecation without `since` at the mount, never after its sunset', () => {
    const now = new Date('2026-03-04T05:06:07.890Z');
    expect(deprecationHeaders({}, now)).toEqual({ deprecation: '@1772600767' });
    const past = new Date('2026-02-01T00:00:00Z');
    expect(deprecationHeaders({ sunset: past }, now).deprecation).toBe('@1769904000');
  });
});

describe('a deprecated route', () => {
  it('answers with the headers, on its errors too, and no other route does', async () => {
    const { app } = testApp();
    const auth: Middleware = (c, next) => {
      if (c.request.headers.authorization !== 'yes') throw notFound('who?');
      return next();
    };
    app.addRoutes(
      get(
        '/old/:id',
        {
          params: z.object({ id: z.coerce.number() }),
          deprecated: { since: SINCE, sunset: SUNSET, link: '/new' },
          middleware: [auth],
        },
        (c) => ({ id: c.params.id }),
      ),
      get('/new', () => 'new'),
    );
    const ok = await app.inject({ url: '/old/1', headers: { authorization: 'yes' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers).toMatchObject({
      deprecation: '@1767225600',
      sunset: 'Wed, 30 Jun 2027 23:59:59 GMT',
      link: '</new>; rel="successor-version"',
    });
    // A refused call and a failed validation are calls of the deprecated route all the same.
    const refused = await app.inject('/old/1');
    expect(refused.statusCode).toBe(404);
    expect(refused.headers.deprecation).toBe('@1767225600');
    const invalid = await app.inject({ url: '/old/x', headers: { authorization: 'yes' } });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.headers.sunset).toBe('Wed, 30 Jun 2027 23:59:59 GMT');
    const other = await app.inject('/new');
    expect(other.headers.deprecation).toBeUndefined();
    expect(other.headers.link).toBeUndefined();
  });

  it('counts each call in the metrics record and the JSON log line, by operationId', async () => {
    const { app, lines } = testApp();
    const seen: RequestMetric[] = [];
    app.setMetricsCollector({ recordRequest: (m) => void seen.push(m) });
    app.addRoutes(
      get('/old', { deprecated: true, operationId: 'listOld' }, () => 'old'),
      get('/old/:id', { deprecated: true }, () => 'old'),
      get('/new', () => 'new'),
    );
    for (const url of ['/old', '/old/7', '/new']) await app.inject(url);
    expect(seen.map((m) => m.deprecated)).toEqual(['listOld', 'getOldById', undefined]);
    expect(seen[2]).not.toHaveProperty('deprecated');
    const entries = requestEntries(lines);
    expect(entries.map((e) => e.deprecated)).toEqual(['listOld', 'getOldById', undefined]);
  });

  it('refuses a bad deprecated option when the app starts, naming the route', async () => {
    const { app } = testApp();
    app.addRoutes(get('/x', { deprecated: { since: SUNSET, sunset: SINCE } }, () => 'x'));
    await expect(app.ready()).rejects.toThrow(
      /^route GET \/x.*: deprecated\.sunset must not be earlier than deprecated\.since \(RFC 9745\)$/,
    );
    const { app: app2 } = testApp();
    app2.addRoutes(get('/y', { deprecated: { sunset: new Date('nope') } }, () => 'y'));
    await expect(app2.ready()).rejects.toThrow(
      /^route GET \/y.*: deprecated\.sunset must be a valid Date$/,
    );
  });
});

describe('group options', () => {
  it('deprecates every route of a group, nested ones too, unless a route says false', async () => {
    const { app } = testApp();
    const v1 = app.group('/v1', { version: 'v1', deprecated: { sunset: SUNSET, link: '/v2' } });
    v1.addRoutes(
      get('/a', () => 'a'),
      get('/kept', { deprecated: false }, () => 'k'),
    );
    v1.group('/inner').addRoutes(get('/b', () => 'b'));
    expect(v1.version).toBe('v1');
    expect((await app.inject('/v1/a')).headers.link).toBe('</v2>; rel="successor-version"');
    expect((await app.inject('/v1/inner/b')).headers.sunset).toBe('Wed, 30 Jun 2027 23:59:59 GMT');
    expect((await app.inject('/v1/kept')).headers.deprecation).toBeUndefined();
  });

  it('keeps group(prefix, ...middleware) working, options or not', async () => {
    const { app } = testApp();
    const mark =
      (name: string): Middleware =>
      (c, next) => {
        c.reply.header(`x-${name}`, '1');
        return next();
      };
    app.group('/a', mark('a'), mark('b')).addRoutes(get('/x', () => 'x'));
    app.group('/c', { version: 'v3' }, mark('c')).addRoutes(get('/x', () => 'x'));
    app.group('/d').addRoutes(get('/x', () => 'x'));
    expect((await app.inject('/a/x')).headers).toMatchObject({ 'x-a': '1', 'x-b': '1' });
    expect((await app.inject('/c/x')).headers).toMatchObject({ 'x-c': '1' });
    expect((await app.inject('/d/x')).statusCode).toBe(200);
  });

  it('refuses a bad version, another version inside a versioned group and a bad deprecation', () => {
    const app = new App({ serviceName: 's' });
    expect(() => app.group('/v', { version: 'v 2' })).toThrow(
      `group "/v": version must be letters, digits, '.', '_' or '-', got "v 2"`,
    );
    expect(() => app.group('/v1', { version: 'v1' }).group('/x', { version: 'v2' })).toThrow(
      'group "/x": version "v2" inside a group of version "v1"',
    );
    expect(app.group('/v1b', { version: 'v1' }).group('/x', { version: 'v1' }).version).toBe('v1');
    expect(() => app.group('/d', { deprecated: 'yes' as unknown as true })).toThrow(
      'group "/d": deprecated must be true, false or { since?, sunset?, link?, info? }',
    );
    expect(() => app.group('/d', { deprecated: { link: 'a b' } })).toThrow(
      'group "/d": deprecated.link must be a URL without spaces or <>',
    );
  });
});
