import { existsSync, readFileSync } from 'node:fs';
import { type DefaultTheme, defineConfig } from 'vitepress';

// The documentation site: `npm run docs:build` (TypeDoc into docs/api/, then VitePress into
// docs/.vitepress/dist/) and `npm run docs:dev`. Nothing is fetched at build or view time: the
// default theme's fonts are bundled, the search index is local.

const docs = new URL('../', import.meta.url);

/** A page written by someone else this week: linked only once it is there. */
function ifPresent(item: DefaultTheme.SidebarItem): DefaultTheme.SidebarItem[] {
  return item.link && existsSync(new URL(`.${item.link}.md`, docs)) ? [item] : [];
}

/** TypeDoc's sidebar for the API pages, generated with them (absent before the first build). */
function apiSidebar(): DefaultTheme.SidebarItem[] {
  const file = new URL('api/typedoc-sidebar.json', docs);
  if (!existsSync(file)) return [];
  return JSON.parse(readFileSync(file, 'utf8')) as DefaultTheme.SidebarItem[];
}

const guide: DefaultTheme.SidebarItem[] = [
  {
    text: 'Start',
    items: [
      { text: 'Your first service', link: '/guide/first-service' },
      ...ifPresent({ text: 'Getting started', link: '/guide/getting-started' }),
      { text: 'How Keelson works', link: '/guide/how-it-works' },
    ],
  },
  {
    text: 'Guides',
    items: [
      { text: 'Routing and validation', link: '/guide/routing' },
      { text: 'Responses, files and cookies', link: '/guide/responses' },
      { text: 'Errors', link: '/guide/errors' },
      { text: 'Authentication', link: '/guide/auth' },
      { text: 'Configuration', link: '/guide/configuration' },
      { text: 'Data with keelson/db', link: '/guide/data' },
      { text: 'Outbox and idempotency', link: '/guide/reliable-side-effects' },
      { text: 'Uploads, SSE, WebSockets', link: '/guide/realtime' },
      { text: 'OpenAPI and the typed client', link: '/guide/openapi' },
      { text: 'Testing', link: '/guide/testing' },
      ...ifPresent({ text: 'Contract testing', link: '/guide/contract-testing' }),
      { text: 'Observability', link: '/guide/observability' },
      { text: 'Scheduled and background jobs', link: '/guide/jobs' },
      { text: 'Deployment', link: '/guide/deployment' },
      { text: 'Scaling out', link: '/guide/scaling' },
      { text: 'Performance', link: '/guide/performance' },
      ...ifPresent({ text: 'Bun', link: '/guide/bun' }),
      ...ifPresent({ text: 'Versioning', link: '/guide/versioning' }),
      ...ifPresent({ text: 'Breaking changes', link: '/guide/breaking-changes' }),
    ],
  },
];

const reference: DefaultTheme.SidebarItem[] = [
  {
    text: 'Reference',
    items: [
      { text: 'App options', link: '/reference/app-options' },
      { text: 'Context', link: '/reference/context' },
      { text: 'Builders and middleware', link: '/reference/builders' },
      { text: 'Subpath exports', link: '/reference/subpaths' },
      { text: 'The keelson command', link: '/reference/cli' },
      ...ifPresent({ text: 'Error codes', link: '/reference/errors' }),
      { text: 'API (TypeDoc)', link: '/api/' },
    ],
  },
];

export default defineConfig({
  title: 'Keelson',
  description: 'A TypeScript framework for HTTP services on Fastify 5',
  lang: 'en',
  cleanUrls: false,
  lastUpdated: false,
  // docs/deploy.md only points GitHub readers to the deployment guide.
  srcExclude: ['deploy.md'],
  markdown: { theme: { light: 'github-light', dark: 'github-dark' } },
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/guide/first-service' },
      { text: 'Reference', link: '/reference/app-options' },
      { text: 'API', link: '/api/' },
      { text: 'Contributing', link: '/contributing' },
    ],
    sidebar: {
      '/guide/': guide,
      '/reference/': reference,
      '/api/': [...reference, { text: 'API', items: apiSidebar() }],
    },
    search: { provider: 'local' },
    outline: { level: [2, 3] },
  },
});
