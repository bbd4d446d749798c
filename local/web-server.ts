import { join } from 'node:path';
import type { ViteDevServer } from 'vite';

export interface WebServerOptions {
  projectDir: string;
  host: string;
  port: number;
  supabaseUrl: string;
  anonKey: string;
}

/** The web app's Vite dev server, configured the way a production build is: through VITE_* variables. */
export async function startWebServer(options: WebServerOptions): Promise<ViteDevServer> {
  process.env.VITE_SUPABASE_URL = options.supabaseUrl;
  process.env.VITE_SUPABASE_ANON_KEY = options.anonKey;
  const { createServer } = await import('vite');
  const server = await createServer({
    configFile: join(options.projectDir, 'web', 'vite.config.ts'),
    server: { host: options.host, port: options.port, strictPort: true },
    clearScreen: false,
    logLevel: 'warn',
  });
  await server.listen();
  return server;
}
