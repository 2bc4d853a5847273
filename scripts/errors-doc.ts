// The error-code reference page, made from the catalogue: docs/reference/errors.md is this
// function's output (scripts/gen-errors-doc.ts writes it; a test fails when it is stale).
import { ERROR_CATALOGUE, type KeelsonErrorCode } from '../src/errors/catalogue.js';

/** Where the generated page lives, from the repository root. */
export const ERRORS_DOC_PATH = 'docs/reference/errors.md';

/** The command that writes the page again. */
export const ERRORS_DOC_COMMAND = 'npm run gen:errors';

const HEADER = `# Error codes

<!-- Generated from src/errors/catalogue.ts by \`${ERRORS_DOC_COMMAND}\`: do not edit. -->

Every error a Keelson service answers is \`application/problem+json\` (RFC 9457):

\`\`\`json
{
  "type": "about:blank",
  "title": "Unprocessable Entity",
  "status": 422,
  "detail": "The request did not pass validation.",
  "code": "VALIDATION_FAILED",
  "errors": [{ "path": "body.email", "message": "Invalid email address" }],
  "requestId": "3f1c…"
}
\`\`\`

A client branches on \`code\`, a stable machine code: \`title\` is the status phrase and
\`detail\` is written for a human and may change. \`errors\` comes with validation failures,
\`requestId\` (also the \`x-request-id\` header) leads to the service's log entry.

This page lists every code Keelson itself answers with. A service adds its own
(\`new KError({ code: 'OUT_OF_STOCK', statusCode: 409, message })\`) and documents them; the
OpenAPI document of each operation lists, per status, the codes Keelson may answer there.
`;

const FOOTER = `
## In the OpenAPI document

Each operation narrows \`code\` to the codes Keelson answers there, as an \`enum\` next to the
\`Problem\` schema (\`allOf\`): a body's 400, 413, 415 and 422, a guard's 401, \`authorize()\`'s
403, a rate limit's 429, an idempotency key's 400, 409 and 422, an upload's 400. A status the
route lists in \`errors\`, a middleware response that declares no \`codes\`, the 5xx and the
\`4XX\`/\`5XX\` ranges leave \`code\` open. So when a handler answers one of the statuses above
with a code of its own, list that status in the route's \`errors\`:

\`\`\`ts
import { KError, post } from 'keelson';
import { z } from 'zod';

export const order = post(
  '/orders',
  { body: z.object({ sku: z.string() }), errors: [422] },
  (c) => {
    if (c.body.sku === 'gone') {
      throw new KError({ code: 'OUT_OF_STOCK', statusCode: 422, message: 'Sold out.' });
    }
    return { ok: true };
  },
);
\`\`\`

A middleware of your own says which codes it answers with in its docs:
\`describeMiddleware(fn, { responses: { 409: { codes: ['SEAT_TAKEN'] } } })\`.

## Other client errors

A 4xx raised by a Fastify plugin or an \`http-errors\` error that the service throws keeps its
status, and its code is the status phrase in upper snake case: 410 is \`GONE\`, 418 is
\`IM_A_TEAPOT\`. A 5xx that is not a \`KError\` is always \`INTERNAL\`, with a generic detail.

## Watching the codes

Every problem body Keelson makes is published on the \`node:diagnostics_channel\` channel
\`keelson:problem\` as \`{ problem, error }\`, where \`error\` is the thrown value it was made
from (if any): subscribe to count codes or to report errors elsewhere.

\`\`\`ts
import { subscribe } from 'node:diagnostics_channel';

subscribe('keelson:problem', (message) => {
  const { problem } = message as { problem: { status: number; code: string } };
  if (problem.status >= 500) console.error('answered %d %s', problem.status, problem.code);
});
\`\`\`
`;

function cell(text: string): string {
  return text.replaceAll('|', '\\|');
}

/** The whole page, from ERROR_CATALOGUE. */
export function renderErrorsDoc(): string {
  const codes = Object.keys(ERROR_CATALOGUE) as KeelsonErrorCode[];
  const lines = [HEADER, '## All codes', '', '| Code | Status | Title |', '| --- | --- | --- |'];
  for (const code of codes) {
    const { status, title } = ERROR_CATALOGUE[code];
    lines.push(`| [\`${code}\`](#${code.toLowerCase()}) | ${status} | ${cell(title)} |`);
  }
  for (const code of codes) {
    const { status, title, when, action } = ERROR_CATALOGUE[code];
    // An anchor of its own: the site's heading slugs turn `_` into `-`, GitHub's keep it.
    lines.push(
      '',
      `<a id="${code.toLowerCase()}"></a>`,
      '',
      `### ${code}`,
      '',
      `**${status} ${title}**`,
      '',
    );
    lines.push(`- When: ${when}`, `- What to do: ${action}`);
  }
  return `${lines.join('\n')}\n${FOOTER}`;
}
