/** The Edge Function entry point: the only file that reads Deno's environment. */
import { createDatabase } from '../_shared/db.ts';
import { parseEnv } from '../_shared/env.ts';
import { createJsonLogger } from '../_shared/logger.ts';
import { createApp } from './app.ts';

const env = parseEnv(Deno.env.toObject());
const logger = createJsonLogger({ level: env.LOG_LEVEL });
const db = createDatabase({ url: env.SUPABASE_DB_URL, logger });

Deno.serve(createApp({ db, logger, allowedOrigins: env.ALLOWED_ORIGINS }).fetch);
