/**
 * What the App asks of its engine, whichever it is: the Fastify engine (the default, on Node
 * and on Bun) or the Bun engine (`engine: 'bun'`, on `Bun.serve`).
 * @module
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { BuildOpenApiOptions } from '../docs/openapi.js';
import type { EngineServer } from '../lifecycle/engine-server.js';
import type { AppRuntime } from '../routing/runtime.js';
import type { RouteEntry } from '../routing/table.js';
import type { Middleware } from '../routing/types.js';
import type { AnswerPath } from './answer.js';
import type { BunServer } from './bun/bun-types.js';
import type { SecurityHeaders } from './security-headers.js';

/** The engine under an app, and its own object: `app.engine`. */
export type EngineInfo =
  | {
      /** The Fastify engine. */
      readonly name: 'fastify';
      /** The Fastify instance, for plugins Keelson does not wrap. */
      readonly fastify: FastifyInstance;
    }
  | {
      /** The Bun engine (`Bun.serve`). */
      readonly name: 'bun';
      /** Bun's server once the app listens; undefined before. */
      readonly server: BunServer | undefined;
    };

/** What mounting an engine is given. */
export interface EngineMountPlan {
  readonly isDraining: () => boolean;
  readonly routes: readonly RouteEntry[];
  readonly appMiddleware: readonly Middleware[];
}

/** An engine as the App drives it. */
export interface AppEngineCore {
  /** What every request of the app reads; the App sets its integrations on it. */
  readonly runtime: AppRuntime;
  /** The answer path. */
  readonly answerPath: AnswerPath;
  /** The security headers of answers and of HTML pages. */
  readonly security: SecurityHeaders;
  /** The listening side, for the lifecycle. */
  readonly server: EngineServer;
  /** Which engine, and its own object. */
  readonly info: EngineInfo;
  /** Serves `dir` under `prefix`. @throws when the engine does not serve files */
  addStatic(prefix: string, dir: string, options: object | undefined): void;
  /** Installs the pipeline and mounts the routes of the table. */
  mount(plan: EngineMountPlan): Promise<void>;
  /** Serves one request with no socket. */
  inject(request: InjectOptions | string): Promise<LightMyRequestResponse>;
}

/** What the document needs besides the table: app middleware and the shape of error answers. */
export function docsOptionsOf(
  answerPath: AnswerPath,
  appMiddleware: readonly Middleware[],
): BuildOpenApiOptions {
  const { body, contentType, schema } = answerPath.errors;
  const options: BuildOpenApiOptions = { middleware: appMiddleware };
  if (body !== undefined || schema !== undefined) {
    options.errorResponse = schema ? { contentType, schema } : { contentType };
  }
  return options;
}
