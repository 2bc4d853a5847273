import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { App, get, post } from '../../src/index.js';
import { breakingChanges, diffOpenApi } from '../../src/openapi-diff/index.js';
import { baseDocument, changed, type Doc } from './documents.js';

const S = (doc: Doc) => doc.components.schemas;

describe('each change names its operation and its JSON location', () => {
  it('points into the component a $ref leads to, once per operation that uses it', () => {
    const current = changed((d) => delete S(d).User.properties.nickname);
    expect(diffOpenApi(baseDocument(), current)).toEqual([
      {
        breaking: true,
        code: 'property-removed',
        operation: 'POST /users (createUser)',
        location: '#/components/schemas/User/properties/nickname',
        message: 'response field removed: nickname',
      },
      expect.objectContaining({ operation: 'GET /users/{id} (getUser)' }),
    ]);
  });

  it('escapes the path in the pointer and names an operation without an id by method and path', () => {
    const current = changed((d) => {
      delete d.paths['/users/{id}'].get.operationId;
      d.paths['/users/{id}'].get.parameters[1].required = true;
    });
    expect(diffOpenApi(baseDocument(), current)).toEqual([
      expect.objectContaining({
        operation: 'GET /users/{id}',
        location: '#/paths/~1users~1{id}/get/parameters/1/required',
        message: 'query parameter fields made required',
      }),
    ]);
  });

  it('follows $refs to parameters, request bodies and responses in the components', () => {
    const refs = (d: Doc) => {
      const op = d.paths['/users/{id}'].get;
      d.components.parameters = { Fields: op.parameters[1] };
      op.parameters[1] = { $ref: '#/components/parameters/Fields' };
      d.components.responses = { UserFound: op.responses[200] };
      op.responses[200] = { $ref: '#/components/responses/UserFound' };
    };
    const base = changed(refs);
    const current = changed((d) => {
      refs(d);
      d.components.parameters.Fields.required = true;
      d.components.responses.UserFound.content['text/csv'] = {};
    });
    expect(diffOpenApi(base, current).map((c) => [c.code, c.location])).toEqual([
      ['parameter-required', '#/components/parameters/Fields/required'],
      ['media-type-added', '#/components/responses/UserFound/content/text~1csv'],
    ]);
  });
});

describe('schemas', () => {
  it('ends on a recursive schema and still finds a change inside it', () => {
    const recursive = (d: Doc) => {
      S(d).User.properties.manager = { $ref: '#/components/schemas/User' };
    };
    const current = changed((d) => {
      recursive(d);
      S(d).User.properties.role.enum.push('guest');
    });
    const changes = diffOpenApi(changed(recursive), current);
    expect(changes.map((c) => c.message)).toEqual([
      'enum value added to response field role: "guest"',
      'enum value added to response field role: "guest"',
    ]);
  });

  it('finds a change in a component reached through an unchanged one', () => {
    const list = (d: Doc) => {
      S(d).Users = { type: 'array', items: { $ref: '#/components/schemas/User' } };
      d.paths['/users/{id}'].get.responses[200].content['application/json'].schema = {
        $ref: '#/components/schemas/Users',
      };
    };
    const current = changed((d) => {
      list(d);
      S(d).User.properties.id.type = 'string';
    });
    expect(diffOpenApi(changed(list), current).map((c) => [c.operation, c.message])).toEqual([
      ['POST /users (createUser)', 'type of response field id changed: integer → string'],
      ['GET /users/{id} (getUser)', 'type of response field [].id changed: integer → string'],
    ]);
  });

  it('reads T → T | null (anyOf, as Zod writes a nullable object) as a variant added', () => {
    const nullable = { anyOf: [{ $ref: '#/components/schemas/NewUser' }, { type: 'null' }] };
    const current = changed((d) => {
      d.paths['/users'].post.requestBody.content['application/json'].schema = nullable;
      d.paths['/users/{id}'].get.responses[200].content['application/json'].schema = {
        anyOf: [{ $ref: '#/components/schemas/User' }, { type: 'null' }],
      };
    });
    const changes = diffOpenApi(baseDocument(), current);
    expect(changes.map((c) => [c.breaking, c.code, c.message])).toEqual([
      [false, 'variant-added', 'request body may now be null'],
      [true, 'variant-added', 'response 200 may now send null'],
    ]);
    expect(diffOpenApi(current, baseDocument()).map((c) => [c.breaking, c.message])).toEqual([
      [true, 'request body no longer accepts null'],
      [false, 'response 200 no longer sends null'],
    ]);
  });

  it('breaks on a request field removed from a closed object, which now refuses it', () => {
    const closed = (d: Doc) => {
      S(d).NewUser.additionalProperties = false;
    };
    const current = changed((d) => {
      closed(d);
      delete S(d).NewUser.properties.nickname;
    });
    expect(breakingChanges(changed(closed), current)).toEqual([
      expect.objectContaining({
        code: 'property-removed',
        message: 'request field removed: nickname',
      }),
    ]);
    expect(breakingChanges(baseDocument(), changed(closed))).toEqual([
      expect.objectContaining({ message: 'request body no longer accepts other fields' }),
    ]);
  });

  it('breaks on a changed pattern both ways, and on a format added to a request field', () => {
    const pattern = (p: string) => (d: Doc) => {
      S(d).NewUser.properties.name.pattern = p;
      S(d).User.properties.name.pattern = p;
    };
    const changes = diffOpenApi(changed(pattern('^a')), changed(pattern('^b')));
    expect(changes.map((c) => c.breaking)).toEqual([true, true, true]);
    const email = changed((d) => {
      S(d).NewUser.properties.nickname.format = 'email';
    });
    expect(breakingChanges(baseDocument(), email).map((c) => c.message)).toEqual([
      'format of request field nickname narrowed: none → "email"',
    ]);
    expect(breakingChanges(email, baseDocument())).toEqual([]);
  });
});

describe('operations, bodies and headers', () => {
  it('breaks on a required body added; a body removed or an operation deprecated is listed only', () => {
    const body = { required: true, content: { 'application/json': { schema: {} } } };
    const withBody = changed((d) => {
      d.paths['/users/{id}'].get.requestBody = body;
    });
    expect(breakingChanges(baseDocument(), withBody).map((c) => c.message)).toEqual([
      'required request body added',
    ]);
    expect(diffOpenApi(withBody, baseDocument())).toEqual([
      expect.objectContaining({ breaking: false, message: 'request body removed (now ignored)' }),
    ]);
    const deprecated = changed((d) => {
      d.paths['/users/{id}'].get.deprecated = true;
    });
    expect(diffOpenApi(baseDocument(), deprecated)).toEqual([
      expect.objectContaining({ breaking: false, code: 'operation-deprecated' }),
    ]);
  });

  it('matches response headers in any case', () => {
    const lower = changed((d) => {
      const r = d.paths['/users'].post.responses[201];
      r.headers = { location: r.headers.Location };
    });
    expect(diffOpenApi(baseDocument(), lower)).toEqual([]);
  });
});

describe('accepting a break by raising the major version', () => {
  const removed = (version: string) =>
    changed((d) => {
      d.info.version = version;
      delete d.paths['/users/{id}'];
    });

  it('lists the break as accepted when info.version raises the major (the minor in 0.x)', () => {
    const base = changed((d) => {
      d.info.version = '1.4.0';
    });
    expect(diffOpenApi(base, removed('2.0.0'))).toEqual([
      expect.objectContaining({ breaking: true, accepted: 'info.version 1.4.0 → 2.0.0' }),
    ]);
    expect(breakingChanges(base, removed('2.0.0'))).toEqual([]);
    expect(breakingChanges(base, removed('1.5.0'))).toHaveLength(1);
    expect(breakingChanges(base, removed('2.0.0'), { semver: false })).toHaveLength(1);
    const zero = changed((d) => {
      d.info.version = '0.3.1';
    });
    expect(breakingChanges(zero, removed('0.4.0'))).toEqual([]);
    expect(breakingChanges(zero, removed('0.3.2'))).toHaveLength(1);
  });
});

describe('documents Keelson writes', () => {
  function app(v2: boolean): App {
    const User = z
      .object({
        id: z.number().int(),
        name: z.string(),
        ...(v2 ? {} : { email: z.email() }),
        role: z.enum(v2 ? ['admin', 'user', 'guest'] : ['admin', 'user']),
      })
      .meta({ id: 'User' });
    const a = new App({ serviceName: 'users', env: 'production' });
    a.addRoutes(
      get(
        '/users/:id',
        { params: z.object({ id: z.coerce.number().int() }), responses: { 200: User } },
        () => ({ id: 1, name: 'a', role: 'admin' as const, email: 'a@b.c' }),
      ),
      post('/users', { body: User.omit({ id: true }), responses: { 201: User } }, (c) =>
        c.created({ id: 1, ...c.body, email: 'a@b.c' }),
      ),
    );
    return a;
  }

  it('finds nothing between two builds of one app, and the breaks between two versions', async () => {
    const v1 = await app(false).openapi();
    expect(diffOpenApi(v1, await app(false).openapi())).toEqual([]);
    const found = breakingChanges(v1, await app(true).openapi()).map(
      (c) => `${c.operation}: ${c.message}`,
    );
    expect(found).toEqual([
      'GET /users/{id} (getUsersById): response field removed: email',
      'GET /users/{id} (getUsersById): enum value added to response field role: "guest"',
      'POST /users (postUsers): response field removed: email',
      'POST /users (postUsers): enum value added to response field role: "guest"',
    ]);
  });
});
