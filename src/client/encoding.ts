/**
 * Request bodies and answers of the typed client: JSON, or a multipart form when the body holds
 * files; answers decoded by their media type.
 * @module
 */

/** The body as fetch sends it: a JSON text, or a form when there is a file in it. */
export function encodeBody(body: unknown): string | FormData {
  if (body instanceof FormData) return body;
  if (!hasBlob(body)) return JSON.stringify(body);
  const form = new FormData();
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (v === undefined || v === null) continue;
      if (v instanceof Blob) form.append(name, v, v instanceof File ? v.name : name);
      else form.append(name, typeof v === 'object' ? JSON.stringify(v) : String(v));
    }
  }
  return form;
}

// Only a plain object's own fields, and arrays in them, are looked at: a form is flat.
function hasBlob(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  for (const value of Object.values(body)) {
    if (value instanceof Blob) return true;
    if (Array.isArray(value) && value.some((v) => v instanceof Blob)) return true;
  }
  return false;
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

/** The answer's body by its media type: JSON value, text, the event stream itself, or a Blob. */
export async function readBody(response: Response, method: string): Promise<unknown> {
  if (method === 'HEAD' || response.status === 204 || response.status === 304) return undefined;
  const type = (response.headers.get('content-type') ?? '').trim().toLowerCase();
  // An event stream does not end: the caller reads it as it comes.
  if (type.startsWith('text/event-stream')) return response.body ?? undefined;
  if (type === '' || JSON_TYPE.test(type) || type.startsWith('text/')) {
    const text = await response.text();
    if (!text) return undefined;
    return JSON_TYPE.test(type) ? JSON.parse(text) : text;
  }
  const blob = await response.blob();
  return blob.size === 0 ? undefined : blob;
}
