// Writes docs/reference/errors.md from the error catalogue (src/errors/catalogue.ts).
// Run it after changing the catalogue: npm run gen:errors
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERRORS_DOC_PATH, renderErrorsDoc } from './errors-doc.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const target = join(root, ERRORS_DOC_PATH);
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, renderErrorsDoc());
process.stdout.write(`wrote ${ERRORS_DOC_PATH}\n`);
