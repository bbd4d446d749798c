import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv } from 'vite';
import { boardEarlyRequests } from './board-early-requests.ts';
import { boardModulePreload } from './board-modulepreload.ts';
import { installableApp } from './installable-app.ts';
import { contentSecurityPolicyPlugin } from './content-security-policy.ts';
import { parseEnv } from './src/config/env-schema.ts';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig(({ mode }) => {
  // Refuse to serve or build an app that could only fail in the browser.
  const env = parseEnv(loadEnv(mode, repoRoot, 'VITE_'));

  return {
    root: webRoot,
    // One .env at the repository root serves the web app and everything else; only VITE_* reach the browser.
    envDir: repoRoot,
    plugins: [
      react(),
      boardEarlyRequests(),
      boardModulePreload(),
      contentSecurityPolicyPlugin(env.supabaseUrl),
      installableApp(),
    ],
    // Scalar (/docs/api) is built on Vue's esm-bundler build, which asks for its feature flags.
    define: {
      'import.meta.env.VITE_API_CONTRACT': JSON.stringify(apiContractDigest()),
      __VUE_OPTIONS_API__: 'true',
      __VUE_PROD_DEVTOOLS__: 'false',
      __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
    },
    resolve: {
      alias: {
        '@api-spec': fileURLToPath(new URL('../api-spec', import.meta.url)),
        // The API's zod schemas (nothing but zod), so forms validate with the rules the API enforces.
        '@api': fileURLToPath(new URL('../supabase/functions/api', import.meta.url)),
        '@shared': fileURLToPath(new URL('../supabase/functions/_shared', import.meta.url)),
      },
    },
    server: { strictPort: true },
    preview: { strictPort: true },
    build: { outDir: fileURLToPath(new URL('./dist', import.meta.url)), emptyOutDir: true },
  };
});

/** A short digest of the API contract, so that data saved for offline use by another version is dropped. */
function apiContractDigest(): string {
  const spec = readFileSync(fileURLToPath(new URL('../openapi.yaml', import.meta.url)));
  return createHash('sha256').update(spec).digest('hex').slice(0, 16);
}
