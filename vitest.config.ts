import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const failOnConsoleError = './tests/support/fail-on-console-error.ts';
const webAliases = {
  '@api': fileURLToPath(new URL('./supabase/functions/api', import.meta.url)),
  '@shared': fileURLToPath(new URL('./supabase/functions/_shared', import.meta.url)),
};

export default defineConfig({
  test: {
    reporters: ['default', './tests/support/summary-reporter.ts'],
    projects: [
      {
        // The web imports the API's schemas and the shared vocabulary through these, as web/vite.config.ts does.
        resolve: { alias: webAliases },
        test: {
          name: 'unit',
          include: [
            'supabase/functions/**/*.test.ts',
            'local/**/*.test.ts',
            'web/src/**/*.test.ts',
            'tests/web/**/*.test.ts',
            'tests/unit/**/*.test.ts',
          ],
          setupFiles: [failOnConsoleError],
        },
      },
      {
        // Components, rendered into happy-dom and driven with Testing Library.
        resolve: { alias: webAliases },
        test: {
          name: 'web',
          include: ['web/src/**/*.test.tsx'],
          environment: 'happy-dom',
          setupFiles: [failOnConsoleError, './web/src/testing/setup-dom.ts'],
          // What web/src/config/env.ts requires; nothing is served there, tests answer requests themselves.
          env: { VITE_SUPABASE_URL: 'http://127.0.0.1:54321', VITE_SUPABASE_ANON_KEY: 'test-anon-key' },
        },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          globalSetup: ['./tests/support/global-postgres.ts'],
          setupFiles: [failOnConsoleError],
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'db',
          include: ['tests/db/**/*.test.ts'],
          globalSetup: ['./tests/support/global-postgres.ts'],
          setupFiles: [failOnConsoleError],
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'local',
          include: ['tests/local/**/*.test.ts'],
          setupFiles: [failOnConsoleError],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'fault',
          include: ['tests/fault/**/*.test.ts'],
          setupFiles: [failOnConsoleError],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'contract',
          include: ['tests/contract/**/*.test.ts'],
          setupFiles: [failOnConsoleError],
        },
      },
      {
        test: {
          name: 'deploy',
          include: ['tests/deploy/**/*.test.ts'],
          setupFiles: [failOnConsoleError],
          testTimeout: 120_000,
          hookTimeout: 300_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['./tests/support/global-stack.ts'],
          setupFiles: [failOnConsoleError],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
