import { inspectRoutes } from 'hono/dev';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../supabase/functions/api/app.ts';
import type { CredentialVerifier } from '../../supabase/functions/_shared/auth/credential-verifier.ts';
import type { Database } from '../../supabase/functions/_shared/db.ts';
import { captureLogs } from '../support/api-logs.ts';
import { API_BASE_PATH, specOperations } from '../support/openapi.ts';

const unusedDatabase: Database = {
  asCaller: () => Promise.reject(new Error('not used')),
  withCallerTransaction: () => Promise.reject(new Error('not used')),
  withServiceWorkAhead: () => Promise.reject(new Error('not used')),
  serviceStatements: () => Promise.reject(new Error('not used')),
  close: () => Promise.resolve(),
};

const unusedCredentials: CredentialVerifier = {
  verify: () => Promise.reject(new Error('not used')),
};

const app = createApp({
  db: unusedDatabase,
  logger: captureLogs().logger,
  allowedOrigins: [],
  credentials: unusedCredentials,
});

/** `/api/v1/tasks/:id` → `get /v1/tasks/{id}`, the spec's spelling. */
const routed = inspectRoutes(app)
  .filter((route) => !route.isMiddleware && route.method !== 'ALL')
  .map(({ method, path }) => {
    const specPath = path.replace(new RegExp(`^${API_BASE_PATH}`), '').replace(/:(\w+)/g, '{$1}');
    return `${method.toLowerCase()} ${specPath}`;
  });

const documented = specOperations().map(({ method, path }) => `${method} ${path}`);

describe('routes and openapi.yaml', () => {
  it('documents every route the app serves', () => {
    expect(routed.filter((route) => !documented.includes(route))).toEqual([]);
  });

  it('routes every operation the spec documents', () => {
    expect(documented.filter((operation) => !routed.includes(operation))).toEqual([]);
  });

  it('finds routes at all (the walk itself works)', () => {
    expect(routed).toContain('get /v1/health');
  });
});
