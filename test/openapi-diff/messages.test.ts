import { describe, expect, it } from 'vitest';
import { diffOpenApi } from '../../src/openapi-diff/index.js';
import { PAIRS } from './pairs.js';

// What `keelson openapi --check-breaking` prints for each pair: breaking or not, the operation,
// the JSON pointer and the words. (pairs.test.ts checks the codes; this checks what a reader sees.)
const EXPECTED: Record<string, readonly string[]> = Object.fromEntries([
  ['nothing changed', []],
  [
    'operation removed',
    ['breaking GET /users/{id} (getUser) #/paths/~1users~1{id}/get: operation removed'],
  ],
  [
    'operation added',
    ['fine DELETE /users/{id} (deleteUser) #/paths/~1users~1{id}/delete: operation added'],
  ],
  [
    'success status changed 201 → 200',
    [
      'breaking POST /users (createUser) #/paths/~1users/post/responses/201: response 201 removed',
      'fine POST /users (createUser) #/paths/~1users/post/responses/200: response 200 added',
    ],
  ],
  [
    'error status removed, still covered by 4XX',
    [
      'fine GET /users/{id} (getUser) #/paths/~1users~1{id}/get/responses/404: response 404 removed (still covered by 4XX)',
    ],
  ],
  [
    'error status added',
    ['fine POST /users (createUser) #/paths/~1users/post/responses/409: response 409 added'],
  ],
  [
    'required query parameter added',
    [
      'breaking GET /users/{id} (getUser) #/paths/~1users~1{id}/get/parameters/2: required query parameter tenant added',
    ],
  ],
  [
    'optional query parameter added',
    [
      'fine GET /users/{id} (getUser) #/paths/~1users~1{id}/get/parameters/2: optional query parameter lang added',
    ],
  ],
  [
    'query parameter made required',
    [
      'breaking GET /users/{id} (getUser) #/paths/~1users~1{id}/get/parameters/1/required: query parameter fields made required',
    ],
  ],
  [
    'query parameter removed',
    [
      'fine GET /users/{id} (getUser) #/paths/~1users~1{id}/get/parameters/1: query parameter fields removed (now ignored)',
    ],
  ],
  [
    'query parameter type changed string → integer',
    [
      'breaking GET /users/{id} (getUser) #/paths/~1users~1{id}/get/parameters/1/schema/type: type of query parameter fields changed: string → integer',
    ],
  ],
  ['path parameter renamed {id} → {userId}', []],
  [
    'required request field added',
    [
      'breaking POST /users (createUser) #/components/schemas/NewUser/properties/email: required request field added: email',
    ],
  ],
  [
    'optional request field added',
    [
      'fine POST /users (createUser) #/components/schemas/NewUser/properties/email: optional request field added: email',
    ],
  ],
  [
    'request field made required',
    [
      'breaking POST /users (createUser) #/components/schemas/NewUser/required: request field made required: nickname',
    ],
  ],
  [
    'request field made optional',
    [
      'fine POST /users (createUser) #/components/schemas/NewUser/required: request field made optional: role',
    ],
  ],
  [
    'request field removed (object open)',
    [
      'fine POST /users (createUser) #/components/schemas/NewUser/properties/nickname: request field removed: nickname (now ignored)',
    ],
  ],
  [
    'request field type changed string → integer',
    [
      'breaking POST /users (createUser) #/components/schemas/NewUser/properties/name/type: type of request field name changed: string → integer',
    ],
  ],
  [
    'request field made nullable',
    [
      'fine POST /users (createUser) #/components/schemas/NewUser/properties/nickname/type: type of request field nickname widened: string → string|null',
    ],
  ],
  [
    'request maxLength lowered 50 → 20',
    [
      'breaking POST /users (createUser) #/components/schemas/NewUser/properties/name/maxLength: maxLength of request field name narrowed: 50 → 20',
    ],
  ],
  [
    'request enum value removed',
    [
      'breaking POST /users (createUser) #/components/schemas/NewUser/properties/role/enum: enum value removed from request field role: "admin"',
    ],
  ],
  [
    'request enum value added',
    [
      'fine POST /users (createUser) #/components/schemas/NewUser/properties/role/enum: enum value added to request field role: "guest"',
    ],
  ],
  [
    'response field removed',
    [
      'breaking POST /users (createUser) #/components/schemas/User/properties/nickname: response field removed: nickname',
      'breaking GET /users/{id} (getUser) #/components/schemas/User/properties/nickname: response field removed: nickname',
    ],
  ],
  [
    'response field made optional',
    [
      'breaking POST /users (createUser) #/components/schemas/User/required: response field made optional: role',
      'breaking GET /users/{id} (getUser) #/components/schemas/User/required: response field made optional: role',
    ],
  ],
  [
    'response field added',
    [
      'fine POST /users (createUser) #/components/schemas/User/properties/email: optional response field added: email',
      'fine GET /users/{id} (getUser) #/components/schemas/User/properties/email: optional response field added: email',
    ],
  ],
  [
    'response field made required',
    [
      'fine POST /users (createUser) #/components/schemas/User/required: response field made required: nickname',
      'fine GET /users/{id} (getUser) #/components/schemas/User/required: response field made required: nickname',
    ],
  ],
  [
    'response enum value added',
    [
      'breaking POST /users (createUser) #/components/schemas/User/properties/role/enum: enum value added to response field role: "guest"',
      'breaking GET /users/{id} (getUser) #/components/schemas/User/properties/role/enum: enum value added to response field role: "guest"',
    ],
  ],
  [
    'response enum value removed',
    [
      'fine POST /users (createUser) #/components/schemas/User/properties/role/enum: enum value removed from response field role: "admin"',
      'fine GET /users/{id} (getUser) #/components/schemas/User/properties/role/enum: enum value removed from response field role: "admin"',
    ],
  ],
  [
    'response field made nullable',
    [
      'breaking POST /users (createUser) #/components/schemas/User/properties/nickname/type: type of response field nickname widened: string → string|null',
      'breaking GET /users/{id} (getUser) #/components/schemas/User/properties/nickname/type: type of response field nickname widened: string → string|null',
    ],
  ],
  [
    'response array items type changed',
    [
      'breaking POST /users (createUser) #/components/schemas/User/properties/tags/items/type: type of response field tags[] changed: string → integer',
      'breaking GET /users/{id} (getUser) #/components/schemas/User/properties/tags/items/type: type of response field tags[] changed: string → integer',
    ],
  ],
  [
    'request media type changed JSON → form',
    [
      'breaking POST /users (createUser) #/paths/~1users/post/requestBody/content/application~1json: media type removed from request body: application/json',
      'fine POST /users (createUser) #/paths/~1users/post/requestBody/content/application~1x-www-form-urlencoded: media type added to request body: application/x-www-form-urlencoded',
    ],
  ],
  [
    'response media type added',
    [
      'fine GET /users/{id} (getUser) #/paths/~1users~1{id}/get/responses/200/content/text~1csv: media type added to response 200: text/csv',
    ],
  ],
  [
    'response media type removed',
    [
      'breaking GET /users/{id} (getUser) #/paths/~1users~1{id}/get/responses/200/content/text~1csv: media type removed from response 200: text/csv',
    ],
  ],
  [
    'response header removed',
    [
      'breaking POST /users (createUser) #/paths/~1users/post/responses/201/headers/Location: header removed from response 201: Location',
    ],
  ],
  [
    'request body made optional',
    [
      'fine POST /users (createUser) #/paths/~1users/post/requestBody/required: request body made optional',
    ],
  ],
  ['component renamed User → Account, same schema', []],
]);

describe('what each pair reports, in words and pointers', () => {
  for (const pair of PAIRS) {
    it(pair.name, () => {
      const lines = diffOpenApi(pair.base, pair.current).map(
        (c) => `${c.breaking ? 'breaking' : 'fine'} ${c.operation} ${c.location}: ${c.message}`,
      );
      expect(lines).toEqual(EXPECTED[pair.name]);
    });
  }
});
