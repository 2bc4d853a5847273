/**
 * The App as the package entries hand it out: with the tables through which the core reaches
 * the features it wires (cookies, compression, static files, event streams) filled. The core
 * declares the tables (`app-features.ts`, `routing/context-features.ts`) and never imports a
 * feature; this file, above both, joins them. The entry re-exports `App` from here, so any
 * bundle that keeps the App keeps the tables filled.
 * @module
 */
import { installAppFeatures } from './app-features.js';
import { compressPlugin } from './compress/index.js';
import {
  clearCookie,
  cookiesPlugin,
  readCookies,
  setCookie,
  signedCookie,
} from './cookies/index.js';
import { cookieJar } from './cookies/jar.js';
import { installContextFeatures } from './routing/context-features.js';
import { sendEventStream } from './sse/send.js';
import { staticMount, staticPlugin } from './static/index.js';

installAppFeatures({
  enginePlugins(options, config) {
    const compress = compressPlugin(options.compress);
    const cookies = cookiesPlugin(options.cookies, config.isProduction);
    return compress ? [cookies, compress] : [cookies];
  },
  staticMount,
  staticPlugin,
  cookieJar: (options, config) => cookieJar(options.cookies, config.isProduction),
});

installContextFeatures({ readCookies, setCookie, clearCookie, signedCookie, sendEventStream });

export { App } from './app.js';
