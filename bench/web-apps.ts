/**
 * The two web apps the browser rows compare: Tasklane's production build, made for the bench's
 * stand-in, and a minimal Vite + React app built in the same run by the same Vite, the floor for the
 * bundle row. Both are served by `vite preview` as static files, as production serves a build.
 */
import react from '@vitejs/plugin-react';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, preview, type Plugin, type PreviewServer } from 'vite';
import { buildForProduction } from '../tests/support/production-build.ts';

const PROJECT_DIR = join(import.meta.dirname, '..');

export interface BuiltApp {
  dir: string;
  server: PreviewServer;
  url: string;
}

/** Tasklane's web app, built for the stand-in at `supabaseUrl`, served on `port` (an origin the API allows). */
export async function buildTasklaneWeb(
  outDir: string,
  env: { supabaseUrl: string; anonKey: string },
  port: number,
): Promise<BuiltApp> {
  process.env.VITE_SUPABASE_URL = env.supabaseUrl;
  process.env.VITE_SUPABASE_ANON_KEY = env.anonKey;
  const configFile = join(PROJECT_DIR, 'web', 'vite.config.ts');
  await buildForProduction(() =>
    build({ configFile, logLevel: 'warn', build: { outDir, emptyOutDir: true } }),
  );
  const server = await preview({
    configFile,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: 'localhost', port, strictPort: true },
    plugins: [gzippedAssets(outDir)],
  });
  return { dir: outDir, server, url: `http://localhost:${port}` };
}

/** Inside the project, so that its imports resolve to the project's own React. */
const MINIMAL_APP_DIR = join(PROJECT_DIR, 'node_modules', '.cache', 'tasklane', 'bench-minimal-react-app');

/** The least a Vite + React app ships: one component rendered into the page. Answers its JS files. */
export async function buildMinimalReactApp(rootDir: string = MINIMAL_APP_DIR): Promise<string[]> {
  await mkdir(join(rootDir, 'src'), { recursive: true });
  await writeFile(
    join(rootDir, 'index.html'),
    '<!doctype html><html><body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body></html>\n',
  );
  await writeFile(
    join(rootDir, 'src', 'main.tsx'),
    "import { createRoot } from 'react-dom/client';\n" +
      "createRoot(document.getElementById('root')!).render(<h1>Hello</h1>);\n",
  );
  const output = await build({
    root: rootDir,
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir: join(rootDir, 'dist'), emptyOutDir: true },
  });
  const outputs = Array.isArray(output) ? output : [output];
  return outputs.flatMap((result) =>
    'output' in result
      ? result.output
          .filter((chunk) => chunk.fileName.endsWith('.js'))
          .map((chunk) => join(rootDir, 'dist', chunk.fileName))
      : [],
  );
}

/** The bytes a browser downloads for these files when the server gzips them. */
export async function gzippedBytes(files: readonly string[]): Promise<number> {
  let total = 0;
  for (const file of files) total += gzipSync(await readFile(file)).byteLength;
  return total;
}

const TEXT_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.webmanifest': 'application/manifest+json',
};

/**
 * The build's scripts and styles gzipped, as any production host serves them (`vite preview` sends them
 * as they are): on a slow network (row m) what crosses it must be what a person would download.
 */
function gzippedAssets(outDir: string): Plugin {
  const cache = new Map<string, Buffer>();
  return {
    name: 'bench:gzipped-assets',
    configurePreviewServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = (req.url ?? '').split('?')[0] ?? '';
        const type = TEXT_TYPES[extname(path)];
        if (!type || path.includes('..') || !/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? '')))
          return next();
        readFile(join(outDir, path))
          .then((body) => {
            const gzipped = cache.get(path) ?? gzipSync(body);
            cache.set(path, gzipped);
            res.writeHead(200, {
              'content-type': `${type}; charset=utf-8`,
              'content-encoding': 'gzip',
              'content-length': gzipped.byteLength,
              'cache-control': 'no-cache',
            });
            res.end(gzipped);
          })
          .catch(() => next());
      });
    },
  };
}
