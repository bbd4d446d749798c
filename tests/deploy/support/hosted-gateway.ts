import type { Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAuthService } from '../../../local/auth/auth-service.ts';
import { readEmailTemplates } from '../../../local/auth/email-templates.ts';
import { CLI_RATE_LIMITS } from '../../../local/auth/rate-limits.ts';
import { openDatabase } from '../../../local/db.ts';
import { startGateway } from '../../../local/gateway/gateway.ts';
import { loadOrCreateKeys, type StandInKeys } from '../../../local/keys.ts';
import { freePort } from '../../../local/ports.ts';

export interface HostedGateway {
  url: string;
  keys: StandInKeys;
  /** Where /functions/v1/<name> goes, once the function's port is known. */
  routeFunction(name: string, port: number): void;
  stop(): Promise<void>;
}

const AUTH_POOL_SIZE = 2;

/**
 * The stand-in's gateway with only its Auth service, against an outside database: the project URL a
 * deployed function knows as SUPABASE_URL (sign-in, /auth/v1/.well-known/jwks.json) and the way in to
 * /functions/v1/<name>. Its Auth connects as `authDatabaseUrl`'s role: supabase_auth_admin, as hosted
 * GoTrue does, so a sign-up's trigger into public runs as it would there.
 */
export async function startHostedGateway(authDatabaseUrl: string, siteUrl: string): Promise<HostedGateway> {
  const keysDir = await mkdtemp(join(tmpdir(), 'tasklane-keys-'));
  const keys = await loadOrCreateKeys(keysDir);
  const database = openDatabase({
    url: authDatabaseUrl,
    maxConnections: AUTH_POOL_SIZE,
    log: () => undefined, // A connection ended by the database's shutdown.
  });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const functionPorts = new Map<string, number>();
  let server: Server;
  try {
    server = await startGateway({
      host: '127.0.0.1',
      port,
      functions: {
        portOf: (name) => functionPorts.get(name),
        stop: async () => undefined,
        killNow: () => undefined,
      },
      services: {
        '/auth/v1': createAuthService({
          database,
          keys,
          apiUrl: url,
          refreshTokenReuseIntervalSeconds: 10,
          mailer: { send: () => undefined },
          emailConfirmations: false,
          securePasswordChange: false,
          secureEmailChange: true,
          emailTemplates: readEmailTemplates(join(import.meta.dirname, '..', '..', '..')),
          redirects: { siteUrl, additionalRedirectUrls: [] },
          rateLimits: CLI_RATE_LIMITS,
        }),
      },
      onError: (error) => console.warn('gateway:', error),
    });
  } catch (error) {
    await database.close();
    throw error;
  }
  return {
    url,
    keys,
    routeFunction: (name, functionPort) => functionPorts.set(name, functionPort),
    stop: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await database.close();
      await rm(keysDir, { recursive: true, force: true });
    },
  };
}
