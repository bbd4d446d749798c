/**
 * A function's database, as its environment describes it (docs/deploy.md §6): through TASKLANE_DB_URL
 * (the transaction pooler) when set, else SUPABASE_DB_URL; TLS with TASKLANE_DB_CA_CERT; the pool size
 * and statement preparation the environment asks for. Logs how it connects, never with the URL.
 */
import { createDatabase, type Database } from './db.ts';
import { databaseConnection } from './db-connection.ts';
import { preparedStatementsOf, type Env } from './env.ts';
import type { Logger } from './logger.ts';

export function databaseFromEnv(env: Env, logger: Logger): Database {
  const connection = databaseConnection(env.TASKLANE_DB_URL ?? env.SUPABASE_DB_URL, env.TASKLANE_DB_CA_CERT);
  const db = createDatabase({
    url: connection.connectionString,
    ssl: connection.ssl,
    maxConnections: env.TASKLANE_DB_POOL_SIZE,
    preparedStatements: preparedStatementsOf(env),
    logger,
  });
  logger.info('database connections', {
    through: env.TASKLANE_DB_URL ? 'TASKLANE_DB_URL' : 'SUPABASE_DB_URL',
    tls: connection.tls,
    pool_size: env.TASKLANE_DB_POOL_SIZE,
    prepared_statements: preparedStatementsOf(env),
  });
  return db;
}
