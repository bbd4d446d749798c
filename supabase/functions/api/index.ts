/** The Edge Function entry point: the only file that reads Deno's environment. */
import type { Context } from 'hono';
import { accessTokenVerifier, authIssuer } from '../_shared/auth/access-token-verifier.ts';
import { apiTokenVerifier } from '../_shared/auth/api-token-verifier.ts';
import { bearerCredentialVerifier } from '../_shared/auth/credential-verifier.ts';
import { projectAuthKeys, reportSigningKeys } from '../_shared/auth/signing-keys.ts';
import { databaseFromEnv } from '../_shared/database-from-env.ts';
import { parseEnv } from '../_shared/env.ts';
import { createJsonLogger } from '../_shared/logger.ts';
import { warnOfUnusablePlatformVariables } from '../_shared/platform-variables.ts';
import { httpMailer } from '../_shared/mail/http-mailer.ts';
import { unsentMailer } from '../_shared/mail/unsent-mailer.ts';
import { denoResolver } from '../_shared/outbound/deno-network.ts';
import { createStorageClient } from '../_shared/storage.ts';
import { createApp } from './app.ts';
import { apiUrlFor } from './http/api-url.ts';
import type { AppEnv } from './app-env.ts';
import { dispatcherWake } from './webhooks/dispatcher-wake.ts';

const variables = Deno.env.toObject();
const env = parseEnv(variables);
const logger = createJsonLogger({ level: env.LOG_LEVEL });
warnOfUnusablePlatformVariables(variables, logger);
const db = databaseFromEnv(env, logger);
const authKeys = projectAuthKeys(env.SUPABASE_URL, env.SUPABASE_JWKS);
const credentials = bearerCredentialVerifier({
  accessTokens: accessTokenVerifier({
    keys: authKeys.keys,
    legacyJwtSecret: env.TASKLANE_LEGACY_JWT_SECRET,
    issuer: authIssuer(env.SUPABASE_URL),
    db,
  }),
  apiTokens: apiTokenVerifier({ db }),
});
// Not awaited: boot goes on; it only logs, when no access token could be verified for want of keys.
void reportSigningKeys(authKeys, env.TASKLANE_LEGACY_JWT_SECRET !== undefined, logger);
const mailer = env.MAIL_API_URL
  ? httpMailer({ url: env.MAIL_API_URL, apiKey: env.MAIL_API_KEY, from: env.MAIL_FROM })
  : unsentMailer(logger);
const storage = env.STORAGE_SERVICE_KEY
  ? createStorageClient({ url: env.SUPABASE_URL, serviceKey: env.STORAGE_SERVICE_KEY })
  : undefined;
if (!storage) logger.warn('no key to call Storage with: attachments and avatars answer 503', {});

/** Deno.serve hands each request's connection info to the handler, and Hono keeps it as `c.env`. */
const connectionAddress = (c: Context<AppEnv>): string | undefined =>
  (c.env as Deno.ServeHandlerInfo<Deno.NetAddr> | undefined)?.remoteAddr.hostname;

Deno.serve(
  createApp({
    db,
    logger,
    allowedOrigins: env.ALLOWED_ORIGINS,
    credentials,
    connectionAddress,
    mailer,
    appUrl: env.APP_URL,
    apiUrl: apiUrlFor(env.SUPABASE_URL),
    storage,
    serviceKey: env.STORAGE_SERVICE_KEY,
    webhookDestinations: {
      resolve: denoResolver,
      allowLoopbackHttp: env.TASKLANE_WEBHOOKS_ALLOW_LOOPBACK_HTTP,
    },
    ...(env.STORAGE_SERVICE_KEY === undefined
      ? {}
      : {
          wakeWebhookDispatcher: dispatcherWake({
            url: `${env.SUPABASE_URL.replace(/\/+$/, '')}/functions/v1/webhook-dispatcher`,
            secretKey: env.STORAGE_SERVICE_KEY,
            logger,
          }),
        }),
    ...(env.NOTIFICATION_MAIL_BATCH_SECONDS === undefined
      ? {}
      : { notificationMailBatchSeconds: env.NOTIFICATION_MAIL_BATCH_SECONDS }),
    rateLimits: { user: env.RATE_LIMIT_USER_PER_MINUTE, ip: env.RATE_LIMIT_IP_PER_MINUTE },
    trustedProxyHops: env.TASKLANE_TRUSTED_PROXY_HOPS,
  }).fetch,
);
