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
  // lib/ is below components/: a component may use lib/ (load-error.tsx, toaster.tsx), not the reverse.
  {
    target: `${WEB}/lib`,
    from: `${WEB}/components`,
    message: 'lib/ imports no component: a field or a toast belongs in components/, or app/ passes it in.',
  },
  // Inside a feature, api/ (requests and the cache) is below its components; a test may look at both.
  ...FEATURES.map((feature) => ({
    target: `${WEB}/features/${feature}/api/**/!(*.test).{ts,tsx}`,
    from: `${WEB}/features/${feature}/components`,
    message: "A feature's api/ imports none of its components: what both need belongs in api/.",
  })),
];

// The API's layers (docs/decisions/0044-api-import-zones.md): _shared/ → the API's plumbing → features.
const API = './supabase/functions/api';
const apiFolders = readdirSync(new URL(API, import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
// Below the features, importing none: HTTP helpers, middleware and the stores only middleware uses, and
// files/ (Storage objects, signatures, sweeps, file errors) that attachments and avatars share.
const API_PLUMBING = ['http', 'middleware', 'idempotency', 'rate-limits', 'files'];
const API_FEATURES = apiFolders.filter((folder) => !API_PLUMBING.includes(folder));

// A feature's face: the files other features may import. Every feature's *.schemas.ts is part of it (its
// rules, written once, which the web imports too); the rest is listed here, each with why.
const API_FACES = {
  workspaces: {
    'workspace-access.ts': 'entering a workspace (membership, role, MFA): every workspace route starts there',
    'workspace-access.queries.ts': 'the access row, read in the same round trip as what is asked',
    'workspaces.queries.ts': 'the workspace row, which invitations and exports answer with',
    'workspaces.service.ts':
      'toWorkspace: invitations and exports answer a workspace as GET /workspaces does',
  },
  projects: {
    'project-access.ts': 'finding a project and the archive rule, for what lives in a project',
    'projects.queries.ts': 'the project and the caller’s access in one statement, for task routes',
  },
  tasks: {
    'task-access.ts': 'entering a task’s workspace, for what hangs off a task (comments, files, events)',
  },
  me: { 'me.service.ts': 'the account as GET /me answers it, which an avatar change answers with' },
  'mail-outbox': {
    'mail-outbox.queries.ts': 'queueing a mail in the transaction that sends it (invitations)',
    'mail-outbox.service.ts': 'delivering queued mail after the answer',
  },
};
const apiSchemas = (feature) =>
  readdirSync(new URL(`${API}/${feature}`, import.meta.url)).filter((file) => file.endsWith('.schemas.ts'));
const faceOf = (feature) =>
  [...apiSchemas(feature), ...Object.keys(API_FACES[feature] ?? {})].map((file) => `./${feature}/${file}`);

const apiLayers = [
  {
    target: './supabase/functions/_shared',
    from: API,
    message: '_shared/ is below the API: it imports nothing from api/.',
  },
  ...API_PLUMBING.map((plumbing) => ({
    target: `${API}/${plumbing}`,
    from: API_FEATURES.map((feature) => `${API}/${feature}`),
    message: `api/${plumbing}/ is below the features and imports none: move what it needs down, or the helper up into its feature.`,
  })),
  // A feature imports its own files, the plumbing, app-env.ts's types, and other features' faces only.
  ...API_FEATURES.map((feature) => ({
    target: `${API}/${feature}`,
    from: API,
    except: [
      `./${feature}`,
      ...API_PLUMBING.map((plumbing) => `./${plumbing}`),
      './app-env.ts',
      ...API_FEATURES.filter((other) => other !== feature).flatMap(faceOf),
    ],
    message: 'Features import each other only through a face: *.schemas.ts or a file API_FACES lists.',
  })),
];

// The web shares the API's zod schemas (zod only, no server code) and the generated types, nothing else.
const onlyApiSchemas = {
  regex: String.raw`^@api/(?!.*\.schemas\.ts$)`,
  message: 'The web imports only *.schemas.ts from @api.',
};
// It may read the shared vocabulary and the limits: pure constants and predicates, no server code; and
// the notification sentence, which the inbox and the notification mail say alike (it imports only types).
const noServerCode = {
  group: [
    '@shared/*',
    '!@shared/vocabulary',
    '!@shared/limits.ts',
    '!@shared/notification-sentence.ts',
    '**/supabase/functions/**',
  ],
  message:
    'The web runs no API code (only @shared/vocabulary/, @shared/limits.ts and @shared/notification-sentence.ts).',
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

// API tests read an answer's body typed by the contract (tests/support/api-client.ts), or parse one the
// contract does not describe (a test-only route) with zod: a `.body as X` would hide a body that is not X.
const noBodyCasts = [
  "TSAsExpression > MemberExpression.expression[property.name='body']",
  "TSAsExpression > ChainExpression.expression > MemberExpression[property.name='body']",
].map((selector) => ({
  selector,
  message: 'Read the body through the typed client (apiClient, responseOf) or parse it with zod; no cast.',
}));
// The hostile tests keep the untyped callApi path (tests/support/api-client.ts): they send what the types forbid.
const HOSTILE_API_TESTS = [
  'tests/api/fuzz.test.ts', // hostile input against every operation
  'tests/api/authorization-matrix.test.ts', // every operation × every kind of caller
  'tests/api/errors.test.ts', // malformed, oversized and deeply nested bodies
  'tests/api/authentication.test.ts', // malformed and missing credentials
  'tests/api/query-parameters.test.ts', // query parameters a route does not take
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
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json' })],
    },
    rules: { 'import-x/no-restricted-paths': ['error', { zones: apiLayers }] },
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
    files: ['tests/api/**/*.ts'],
    ignores: HOSTILE_API_TESTS,
    rules: { 'no-restricted-syntax': ['error', ...noBodyCasts] },
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
