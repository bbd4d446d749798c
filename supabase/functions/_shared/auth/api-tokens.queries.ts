/** SQL that authenticates an API token; runs as the service, since the caller is not known yet. */
import type { ApiTokenScope } from '../api-types.ts';
import type { Sql } from '../db.ts';

export type ApiTokenStatus = 'active' | 'revoked' | 'expired' | 'banned';

export interface PresentedApiTokenRow extends Record<string, unknown> {
  token_id: string;
  user_id: string;
  email: string | null;
  scope: ApiTokenScope;
  status: ApiTokenStatus;
  expires_at: Date;
  has_verified_factor: boolean;
}

/** The token whose secret hashes to `tokenHashHex`, with its state; records the use of an active one. */
export async function selectPresentedApiToken(
  sql: Sql,
  tokenHashHex: string,
): Promise<PresentedApiTokenRow | undefined> {
  const [row] = await sql.query<PresentedApiTokenRow>(
    `select token_id, user_id, email, scope, status, expires_at, has_verified_factor
     from private.authenticate_api_token(decode($1, 'hex'))`,
    [tokenHashHex],
  );
  return row;
}
