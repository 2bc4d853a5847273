/**
 * The package version, read from package.json at run time: one place holds it, whether the code
 * runs from src/ or from the built dist/ (both sit one folder below package.json).
 * @module
 */
import { createRequire } from 'node:module';

const pkg = createRequire(import.meta.url)('../package.json') as { readonly version: string };

/** The version of the keelson package. */
export const VERSION: string = pkg.version;
