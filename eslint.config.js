import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const onlyLibMayImport = {
  paths: [
    { name: '@supabase/supabase-js', message: 'Only web/src/lib/ talks to Supabase directly.' },
    { name: 'openapi-fetch', message: 'Use the typed client from web/src/lib/api-client.ts.' },
  ],
};

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
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', onlyLibMayImport],
    },
  },
  {
    files: ['web/src/lib/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
