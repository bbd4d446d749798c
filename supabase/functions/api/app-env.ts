/** The types every part of the API shares: what createApp needs, and what middleware puts on `c.var`. */
import type { RequestIdVariables } from 'hono/request-id';
import type { Database } from '../_shared/db.ts';
import type { Logger } from '../_shared/logger.ts';

export interface AppDeps {
  db: Database;
  logger: Logger;
  /** Browser origins allowed to call the API (CORS); empty means none. */
  allowedOrigins: readonly string[];
}

// The authenticate middleware (next issue) adds the request context here: principal and transaction.
export interface AppEnv {
  Variables: RequestIdVariables;
}
