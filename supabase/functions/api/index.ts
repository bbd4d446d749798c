/** The Edge Function entry point: the only file that reads Deno's environment. */
import { accessTokenVerifier, authIssuer, remoteAuthKeys } from '../_shared/auth/access-token-verifier.ts';
import { bearerCredentialVerifier } from '../_shared/auth/credential-verifier.ts';
import { createDatabase } from '../_shared/db.ts';
import { parseEnv } from '../_shared/env.ts';
import { createJsonLogger } from '../_shared/logger.ts';
import { createApp } from './app.ts';

const env = parseEnv(Deno.env.toObject());
const logger = createJsonLogger({ level: env.LOG_LEVEL });
const db = createDatabase({ url: env.SUPABASE_DB_URL, logger });
const credentials = bearerCredentialVerifier({
  accessTokens: accessTokenVerifier({
    keys: remoteAuthKeys(env.SUPABASE_URL),
    issuer: authIssuer(env.SUPABASE_URL),
    db,
  }),
});

Deno.serve(createApp({ db, logger, allowedOrigins: env.ALLOWED_ORIGINS, credentials }).fetch);
