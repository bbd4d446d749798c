/**
 * The web app as production serves it: built by Vite (with its service worker) and served as static files
 * by `vite preview`. The build talks to the test stack through the preview server itself (a proxy for the
 * Supabase paths), so that the app's origin, the one the service worker belongs to, may be any free port
 * while the stand-in allows only the dev server's origin: the proxy presents that one.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { ClientRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build, createLogger, preview, type Logger, type ProxyOptions } from 'vite';
import { freePort } from '../../local/ports.ts';
import { buildForProduction } from './production-build.ts';

const PROJECT_DIR = resolve(import.meta.dirname, '..', '..');
const SUPABASE_PATHS = ['/auth/v1', '/functions/v1', '/storage/v1', '/realtime/v1', '/rest/v1'];

export interface BuiltWebApp {
  url: string;
  close(): Promise<void>;
}

interface Stack {
  apiUrl: string;
  webUrl: string;
  anonKey: string;
}

export async function serveBuiltWebApp(stack: Stack): Promise<BuiltWebApp> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const outDir = await mkdtemp(join(tmpdir(), 'tasklane-built-web-'));
  const configFile = join(PROJECT_DIR, 'web', 'vite.config.ts');
  process.env.VITE_SUPABASE_URL = url;
  process.env.VITE_SUPABASE_ANON_KEY = stack.anonKey;
  await buildForProduction(() =>
    build({ configFile, logLevel: 'warn', build: { outDir, emptyOutDir: true } }),
  );
  const presentAllowedOrigin = (request: ClientRequest) => {
    if (request.getHeader('origin')) request.setHeader('origin', new URL(stack.webUrl).origin);
  };
  const proxy: ProxyOptions = {
    target: stack.apiUrl,
    ws: true,
    configure: (server) => {
      server.on('proxyReq', presentAllowedOrigin);
      server.on('proxyReqWs', presentAllowedOrigin);
    },
  };
  const server = await preview({
    configFile,
    logLevel: 'warn',
    customLogger: quietAboutClosedSockets(),
    build: { outDir },
    preview: {
      host: '127.0.0.1',
      port,
      strictPort: true,
      proxy: Object.fromEntries(SUPABASE_PATHS.map((path) => [path, proxy])),
    },
  });
  return {
    url,
    close: async () => {
      await server.close();
      await rm(outDir, { recursive: true, force: true });
    },
  };
}

/**
 * vite's logger, less one kind of line: a browser that closes a live socket (a page leaving, going
 * offline, a service worker taking over) resets the proxied connection, which vite logs as an error,
 * and the tests fail on any console.error. Nothing of the app's is wrong then.
 */
function quietAboutClosedSockets(): Logger {
  const logger = createLogger('warn');
  const logError = logger.error.bind(logger);
  logger.error = (message, options) => {
    const code = (options?.error as NodeJS.ErrnoException | null | undefined)?.code;
    if (message.includes('ws proxy') && (code === 'ECONNRESET' || code === 'EPIPE')) return;
    logError(message, options);
  };
  return logger;
}
