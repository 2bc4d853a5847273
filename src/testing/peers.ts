/**
 * The libraries `keelson/testing` runs on, loaded when first needed: fast-check is an
 * optional peer (Ajv is a dependency of the core), so a service that never verifies its
 * contract does not install it.
 * @module
 */
import type { Ajv2020 } from 'ajv/dist/2020.js';

/** fast-check's module. */
export type FastCheck = typeof import('fast-check');

/** What verifyContract loads. */
export interface Peers {
  readonly fc: FastCheck;
  /** A new JSON Schema 2020-12 validator with the standard formats. */
  readonly newAjv: () => Ajv2020;
}

const INSTALL = 'npm install --save-dev fast-check';

let loaded: Promise<Peers> | undefined;

async function load(name: string): Promise<unknown> {
  try {
    return await import(name);
  } catch (err) {
    throw new Error(
      `keelson/testing needs ${name}, which is not installed (${(err as Error).message.split('\n')[0]}); run: ${INSTALL}`,
    );
  }
}

type Default<T> = T | { default: T };

function unwrap<T>(m: Default<T>): T {
  return (m as { default?: T }).default ?? (m as T);
}

/** fast-check, Ajv 2020 and ajv-formats; throws naming the install command when one is missing. */
export function peers(): Promise<Peers> {
  loaded ??= (async () => {
    const fc = unwrap((await load('fast-check')) as Default<FastCheck>);
    const Ajv = unwrap(
      (await load('ajv/dist/2020.js')) as Default<typeof import('ajv/dist/2020.js').Ajv2020>,
    );
    const addFormats = unwrap(
      (await load('ajv-formats')) as Default<typeof import('ajv-formats').default>,
    );
    const newAjv = () => {
      const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
      addFormats(ajv);
      return ajv;
    };
    return { fc, newAjv };
  })();
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}
