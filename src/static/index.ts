/**
 * Static files on @fastify/static (`app.static(prefix, dir)`): content type, ETag,
 * Last-Modified, conditional GET, HEAD and ranges come from the plugin. Every path it refuses
 * (traversal, encoded slashes, dot files, directories) answers 404 problem+json, so a probe
 * learns nothing about what exists outside `dir`; so does a symbolic link whose target lies
 * outside it, unless `followSymlinks` is on. The routes are logged and counted like any other
 * and left out of the OpenAPI document.
 * @module
 */
import { realpathSync, statSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { EnginePlugin } from '../engine/plugin.js';
import { noRoute } from '../request/request-state.js';

/** How `app.static` serves a directory. */
export interface StaticOptions {
  /** `Cache-Control: max-age`, in milliseconds. @default 0 */
  maxAge?: number;
  /** Adds `immutable` to `Cache-Control` (for file names that carry a content hash). @default false */
  immutable?: boolean;
  /**
   * Serves files reached through symbolic links that lead out of the directory. Off, such a
   * file answers 404 like any path outside it; links that stay inside are always followed.
   * @default false
   */
  followSymlinks?: boolean;
}

/** One directory served under a prefix. */
export interface StaticMount {
  readonly prefix: string;
  readonly dir: string;
  readonly options: StaticOptions;
}

/** Checks `app.static`'s arguments (throws naming the bad one) and returns the mount. */
export function staticMount(prefix: string, dir: string, options: StaticOptions = {}): StaticMount {
  if (typeof prefix !== 'string' || !prefix.startsWith('/')) {
    throw new TypeError(`static prefix must start with '/', got ${JSON.stringify(prefix)}`);
  }
  if (typeof dir !== 'string' || dir === '') {
    throw new TypeError(`static dir must be a directory path, got ${JSON.stringify(dir)}`);
  }
  const root = resolve(dir);
  if (!statSync(root, { throwIfNoEntry: false })?.isDirectory()) {
    throw new Error(`static dir ${root} (for ${prefix}) is not a directory`);
  }
  const { maxAge = 0, immutable = false, followSymlinks = false } = options;
  if (!Number.isInteger(maxAge) || maxAge < 0) {
    throw new TypeError(`static maxAge must be an integer of milliseconds >= 0, got ${maxAge}`);
  }
  if (typeof followSymlinks !== 'boolean') {
    throw new TypeError(`static followSymlinks must be a boolean, got ${String(followSymlinks)}`);
  }
  const clean = prefix.length > 1 && prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  // The real path: a directory reached through a link (macOS's /tmp) still contains its files.
  return Object.freeze({
    prefix: clean,
    dir: realpathSync(root),
    options: { maxAge, immutable, followSymlinks },
  });
}

/** Registers every static mount, in a context whose error handler turns refusals into 404s. */
export function staticPlugin(mounts: readonly StaticMount[]): EnginePlugin | undefined {
  if (mounts.length === 0) return undefined;
  return async function registerStatic(fastify: FastifyInstance): Promise<void> {
    const handleError = fastify.errorHandler;
    await fastify.register(async function staticFiles(scope) {
      scope.setErrorHandler(function staticError(error: FastifyError, request, reply) {
        // The plugin answers 403 for traversal and non-canonical paths, `send` for directories.
        const refused =
          error.statusCode === 403 ||
          error.code === 'FST_STATIC_FORBIDDEN_PATH' ||
          (error as unknown) === OUTSIDE_ROOT;
        const answer = refused ? noRoute(request.method, request.url) : error;
        return handleError.call(scope, answer as FastifyError, request, reply);
      });
      for (const { prefix, dir, options } of mounts) {
        await scope.register((await import('@fastify/static')).default, {
          root: dir,
          prefix,
          decorateReply: false,
          dotfiles: 'ignore',
          index: false,
          redirect: false,
          list: false,
          maxAge: options.maxAge ?? 0,
          immutable: options.immutable ?? false,
          ...(options.followSymlinks ? {} : { onFile: insideRoot(dir) }),
        });
      }
    });
  };
}

/** Thrown by `insideRoot` for a file whose real path leaves the directory; answered 404. */
const OUTSIDE_ROOT = new Error('the file lies outside the static directory');

/**
 * The check run on the file the plugin is about to open: its real path, links resolved, must
 * still lie inside `root` (itself a real path), whether the link was the file, a directory on
 * the way or an absolute one.
 */
function insideRoot(root: string): (path: string) => Promise<void> {
  const within = root.endsWith(sep) ? root : root + sep;
  return async function fileInsideRoot(path: string): Promise<void> {
    const real = await realpath(path);
    if (!real.startsWith(within)) throw OUTSIDE_ROOT;
  };
}
