import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { readdirSync } from 'node:fs';

// The web app's layers, bulletproof-react style: shared code (components, config, lib) → features → app.
const WEB = './web/src';
const FEATURES = readdirSync(new URL('./web/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const webLayers = [
  // Features never import each other: app/ composes them.
  ...FEATURES.map((feature) => ({
    target: `${WEB}/features/${feature}`,
    from: `${WEB}/features`,
    except: [`./${feature}`],
    message: 'Features do not import each other; compose them in web/src/app/.',
  })),
  {
    target: `${WEB}/features`,
    from: `${WEB}/app`,
    message: 'Only app/ composes: a feature does not import the app.',
  },
  ...['components', 'config', 'lib'].map((shared) => ({
    target: `${WEB}/${shared}`,
    from: [`${WEB}/features`, `${WEB}/app`],
    message: 'Shared code (components, config, lib) imports no feature and not the app.',
  })),
];

// The web shares the API's zod schemas (zod only, no server code) and the generated types, nothing else.
const onlyApiSchemas = {
  regex: String.raw`^@api/(?!.*\.schemas\.ts$)`,
  message: 'The web imports only *.schemas.ts from @api.',
};
// It may read the shared vocabulary and the limits: pure constants and predicates, no server code.
const noServerCode = {
  group: ['@shared/*', '!@shared/vocabulary', '!@shared/limits.ts', '**/supabase/functions/**'],
  message: 'The web runs no API code (only @shared/vocabulary/ and @shared/limits.ts).',
};
// The web reaches the server only through the typed API client (operations of openapi.yaml) and
// supabase-js's Auth: no other network call, and no table, RPC or storage query from the browser.
const noOtherWayOut = [
  ...['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource'].map((name) => ({
    name,
    message:
      'Call the API through web/src/lib/api/api-client.ts; every call is an operation of openapi.yaml.',
  })),
];
const noTableQueries = [
  ...['from', 'rpc', 'schema', 'storage'].map((property) => ({
    object: 'supabase',
    property,
    message: 'The web never queries tables: call the API through web/src/lib/api/api-client.ts.',
  })),
  ...['window', 'globalThis', 'self'].map((object) => ({
    object,
    property: 'fetch',
    message:
      'Call the API through web/src/lib/api/api-client.ts; every call is an operation of openapi.yaml.',
  })),
];
const onlyLibMayImport = [
  { name: '@supabase/supabase-js', message: 'Only web/src/lib/ talks to Supabase directly.' },
  { name: 'openapi-fetch', message: 'Use the typed client from web/src/lib/api/api-client.ts.' },
];

export default tseslint.config(
  { ignores: ['node_modules', '.tasklane', 'dist', 'web/dist', 'api-spec', 'test-results'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['supabase/functions/**/*.ts'],
    languageOptions: { globals: { Deno: 'readonly' } },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'web/tsconfig.json' })],
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'import-x/no-restricted-paths': ['error', { zones: webLayers }],
      'import-x/no-cycle': 'error',
      'no-restricted-globals': ['error', ...noOtherWayOut],
      'no-restricted-properties': ['error', ...noTableQueries],
      'no-restricted-imports': [
        'error',
        { paths: onlyLibMayImport, patterns: [onlyApiSchemas, noServerCode] },
      ],
    },
  },
  {
    files: ['web/src/lib/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [onlyApiSchemas, noServerCode] }] },
  },
  {
    // The one uploader PUTs a file to the signed upload URL the API issued, with XMLHttpRequest: the only
    // browser API that reports upload progress (docs/decisions/0025-uploads-from-the-browser.md).
    files: ['web/src/lib/uploads/put-file.ts'],
    rules: {
      'no-restricted-globals': ['error', ...noOtherWayOut.filter(({ name }) => name !== 'XMLHttpRequest')],
    },
  },
  {
    // The API client's own fetch: the request openapi-fetch built, or the answer index.html started early.
    files: ['web/src/lib/api/early-responses.ts'],
    rules: {
      'no-restricted-globals': ['error', ...noOtherWayOut.filter(({ name }) => name !== 'fetch')],
    },
  },
);
