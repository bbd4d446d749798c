/** The webhook dispatcher's Edge Function entry point: the only file of it that reads Deno's environment. */
import { databaseFromEnv } from '../_shared/database-from-env.ts';
import { parseEnv } from '../_shared/env.ts';
import { createJsonLogger } from '../_shared/logger.ts';
import { warnOfUnusablePlatformVariables } from '../_shared/platform-variables.ts';
import { denoConnector, denoResolver } from '../_shared/outbound/deno-network.ts';
import { dispatcherHandler } from './dispatcher-handler.ts';

const variables = Deno.env.toObject();
const env = parseEnv(variables);
const logger = createJsonLogger({ level: env.LOG_LEVEL });
warnOfUnusablePlatformVariables(variables, logger);
const db = databaseFromEnv(env, logger);

Deno.serve(
  dispatcherHandler({
    deps: {
      db,
      logger,
      resolve: denoResolver,
      connect: denoConnector,
      allowLoopbackHttp: env.TASKLANE_WEBHOOKS_ALLOW_LOOPBACK_HTTP,
      appUrl: env.APP_URL,
    },
    secretKey: env.STORAGE_SERVICE_KEY,
  }),
);
