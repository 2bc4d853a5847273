// A typed client of the example service: openapi-fetch, typed by the types gen-client.ts makes
// from the service's OpenAPI document. Run it against a running service:
//   npx tsx examples/basic/client.ts http://localhost:3000
import { fileURLToPath } from 'node:url';
import createClient from 'openapi-fetch';
import type { paths } from './api.js';

/** What one round of calls saw. */
export interface Tour {
  createdId: number;
  fetchedName: string | undefined;
  listedNames: string[];
  deleteStatus: number;
  afterDeleteCode: string | undefined;
  withoutTokenStatus: number;
}

/** Creates, reads, lists and deletes a user through the typed client. */
export async function tour(baseUrl: string, token = 'demo-token'): Promise<Tour> {
  const api = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${token}` } });
  const created = await api.POST('/api/v1/users', {
    body: { name: 'Grace Hopper', email: 'grace@example.com' },
  });
  if (!created.data) {
    throw new Error(
      `creating a user answered ${created.response.status}: ${created.error?.detail}`,
    );
  }
  const id = created.data.id;
  const fetched = await api.GET('/api/v1/users/{id}', { params: { path: { id } } });
  const listed = await api.GET('/api/v1/users', { params: { query: { limit: 10 } } });
  const deleted = await api.DELETE('/api/v1/users/{id}', { params: { path: { id } } });
  const gone = await api.GET('/api/v1/users/{id}', { params: { path: { id } } });
  const anonymous = createClient<paths>({ baseUrl });
  const refused = await anonymous.GET('/api/v1/users', {});
  return {
    createdId: id,
    fetchedName: fetched.data?.name,
    listedNames: (listed.data?.data ?? []).map((user) => user.name),
    deleteStatus: deleted.response.status,
    afterDeleteCode: gone.error?.code,
    withoutTokenStatus: refused.response.status,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await tour(process.argv[2] ?? 'http://localhost:3000'));
}
