import type { Plugin, PluginOption, Rollup } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/** The light theme's page colour and the mark's colour (web/src/app/global.css, web/public/favicon.svg). */
const PAGE_COLOUR = '#fbfbfc';
const MARK_COLOUR = '#5e6ad2';

/**
 * Makes the production build an installable app that opens offline (decision 0040): a web app manifest,
 * and a service worker that precaches the shell and every route's chunk, so a screen never opened before
 * still loads without the network, and answers every navigation with index.html (the SPA's routes).
 *
 * The worker is registered by the app itself once the first screen has painted
 * (src/lib/offline/service-worker.ts), never by a script in index.html. A new version waits until the
 * person chooses to reload (`prompt`): taking over mid-edit would reload the page under their hands. The
 * API, Auth, Storage and Realtime are on the Supabase origin and are never cached here: offline, the data
 * on screen is the app's own saved query cache (src/lib/offline/saved-queries.ts).
 */
export function installableApp(): PluginOption {
  const onDemand = new Set<string>();
  return [onDemandFiles(onDemand), serviceWorker(onDemand)];
}

/**
 * The modules that are loaded only when someone asks for them and are too large to download for everyone
 * in advance: the interactive API reference (Scalar, ~1.5 MiB of the build's 6) behind /docs/api's
 * "Open the reference", and the PDF viewer (pdf.js), which needs the network for the PDF anyway.
 * /docs/api itself, with the spec, is precached like every route.
 */
const ON_DEMAND_MODULES =
  /\/node_modules\/@scalar\/api-reference\/|\/features\/attachments\/components\/pdf-viewer\.tsx$/;

function serviceWorker(onDemand: ReadonlySet<string>): PluginOption {
  return VitePWA({
    registerType: 'prompt',
    injectRegister: false,
    // `npm start` serves modules one by one from the dev server; only a build has chunks to precache.
    devOptions: { enabled: false },
    includeAssets: ['favicon.svg', 'icons/apple-touch-icon-180.png'],
    manifest: {
      id: '/',
      name: 'Tasklane',
      short_name: 'Tasklane',
      description: 'A realtime task board for small teams.',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      background_color: PAGE_COLOUR,
      theme_color: MARK_COLOUR,
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
        { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
      ],
    },
    workbox: {
      globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
      // The API reference (/docs/api) is one large chunk; it is a route like the others.
      maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
      navigateFallback: '/index.html',
      // Where the app and the Supabase project share an origin (behind one proxy), an e-mail's
      // /auth/v1/verify link must still reach Auth.
      navigateFallbackDenylist: [/^\/(auth|functions|storage|realtime|rest)\/v1\//],
      cleanupOutdatedCaches: true,
      clientsClaim: true,
      manifestTransforms: [
        (entries) => Promise.resolve({ manifest: entries.filter((entry) => !onDemand.has(entry.url)) }),
      ],
    },
  });
}

/**
 * Collects, into `onDemand`, the files (chunks and their CSS) that only the on-demand modules' dynamic
 * imports lead to: what the entry reaches without passing through one of them is precached.
 */
function onDemandFiles(onDemand: Set<string>): Plugin {
  return {
    name: 'tasklane:on-demand-files',
    apply: 'build',
    generateBundle(_options, bundle) {
      onDemand.clear();
      const chunks = Object.values(bundle).filter(
        (output): output is Rollup.OutputChunk => output.type === 'chunk',
      );
      const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const isOnDemand = (chunk: Rollup.OutputChunk) =>
        chunk.isDynamicEntry && ON_DEMAND_MODULES.test(chunk.facadeModuleId ?? '');
      const reached = new Set<string>();
      const visit = (chunk: Rollup.OutputChunk | undefined) => {
        if (!chunk || reached.has(chunk.fileName) || isOnDemand(chunk)) return;
        reached.add(chunk.fileName);
        for (const css of chunk.viteMetadata?.importedCss ?? []) reached.add(css);
        for (const name of [...chunk.imports, ...chunk.dynamicImports]) visit(byName.get(name));
      };
      for (const entry of chunks.filter((chunk) => chunk.isEntry)) visit(entry);
      for (const chunk of chunks) {
        if (reached.has(chunk.fileName)) continue;
        onDemand.add(chunk.fileName);
        for (const css of chunk.viteMetadata?.importedCss ?? []) if (!reached.has(css)) onDemand.add(css);
      }
    },
  };
}
