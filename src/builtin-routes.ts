/**
 * Keelson's own routes — health, the docs page and document, the dev panel — added to the route
 * table when the app starts, before the engine mounts it.
 * @module
 */
import type { ResolvedConfig } from './config/index.js';
import { devPanelRoutes, type PanelFeed, type ResolvedDevPanel } from './devpanel/index.js';
import type { OpenApiDocuments } from './docs/documents.js';
import type { OpenApiDocument } from './docs/openapi.js';
import { docsRoutes } from './docs/routes.js';
import { type HealthRegistry, healthRoutes } from './health/index.js';
import type { Lifecycle } from './lifecycle/index.js';
import type { RouteTable, Scope } from './routing/table.js';
import type { Middleware } from './routing/types.js';

/** The dev panel of an app, when it has one. */
export interface PanelPlan {
  /** Where requests and log lines are kept for the panel. */
  readonly feed: PanelFeed;
  /** The panel's resolved options. */
  readonly settings: ResolvedDevPanel;
  /** The service's own settings passed alongside KConfig, shown masked. */
  readonly extra: Record<string, unknown>;
}

/** What the built-in routes are made from. */
export interface BuiltinPlan {
  /** The app's resolved config. */
  readonly config: ResolvedConfig;
  /** The health checkers `/health` runs. */
  readonly health: HealthRegistry;
  /** The app's lifecycle: readiness turns 503 once its shutdown has begun. */
  readonly lifecycle: Lifecycle;
  /** The headers of HTML pages (the docs page, the panel). */
  readonly pageHeaders: Readonly<Record<string, string>>;
  /** The app's OpenAPI documents (the whole one, one per version); the docs routes serve them. */
  readonly documents: OpenApiDocuments;
  /** The dev panel, when it is on. */
  readonly panel: PanelPlan | undefined;
  /** App-wide middleware, for the panel's route table. */
  readonly appMiddleware: readonly Middleware[];
}

/**
 * Adds the built-in routes the config asks for, at the root. When the docs are served, their
 * documents (every version's) are built here, before mounting, so a schema one cannot express
 * fails the start naming its route.
 */
export function addBuiltinRoutes(table: RouteTable, root: Scope, plan: BuiltinPlan): void {
  const { config, lifecycle } = plan;
  const add = (routes: Parameters<RouteTable['add']>[0][]) => {
    for (const r of routes) table.add(r, root, 'keelson', true);
  };
  if (!config.disableHealth) add(healthRoutes(config, plan.health, lifecycle.shutdownBegun));
  const { documents } = plan;
  let document: OpenApiDocument | undefined;
  if (config.docs.enabled) {
    const versions = documents.versions;
    add(docsRoutes({ docs: config.docs, documents, versions, headers: plan.pageHeaders }));
    document = documents.build();
    for (const v of versions) documents.get(v);
  }
  if (plan.panel) {
    // Without served docs (production), the panel builds the document on first use: its route
    // table shows the ids `app.openapi()` gives, or none when the document cannot be built.
    let built: OpenApiDocument | null | undefined;
    const panelDocument = (): OpenApiDocument | undefined => {
      if (document) return document;
      if (built === undefined) {
        try {
          built = documents.get();
        } catch {
          built = null;
        }
      }
      return built ?? undefined;
    };
    add(
      devPanelRoutes({
        ...plan.panel,
        config,
        extraConfig: plan.panel.extra,
        routes: () => table.entries,
        document: panelDocument,
        appMiddleware: plan.appMiddleware,
        scheduler: () => lifecycle.scheduler,
        health: () => plan.health.run(config.health),
        pageHeaders: plan.pageHeaders,
        shutdownBegun: lifecycle.shutdownBegun,
      }),
    );
  }
}
