import type pg from 'pg';
import type { StandInKeys } from '../keys.ts';
import type { Mailer } from './mailer.ts';
import type { RateLimiter } from './rate-limits.ts';
import type { RedirectSettings } from './redirects.ts';
import type { TokenIssuer } from './tokens.ts';

/** What every auth endpoint may use. */
export interface AuthContext {
  pool: pg.Pool;
  keys: StandInKeys;
  tokens: TokenIssuer;
  refreshTokenReuseIntervalSeconds: number;
  /** `${API_EXTERNAL_URL}`, i.e. `${apiUrl}/auth/v1`: e-mail links point at its `/verify`. */
  externalUrl: string;
  mailer: Mailer;
  /** Off (the CLI default) means GoTrue's `MAILER_AUTOCONFIRM`: sign-ups are confirmed at once. */
  emailConfirmations: boolean;
  redirects: RedirectSettings;
  rateLimiter: RateLimiter;
}

export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
