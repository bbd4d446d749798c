/** The caller's account: their profile, e-mail address, session assurance level and MFA factors. */
import type { Me, MfaFactor, UpdateMe } from '../../_shared/api-types.ts';
import { lastStatementOf, type Database, type Sql } from '../../_shared/db.ts';
import type { Principal } from '../../_shared/principal.ts';
import { requireExpectedVersion, type ExpectedVersion } from '../../_shared/versions.ts';
import {
  selectOwnAccount,
  selectOwnMfaFactors,
  selectOwnProfile,
  updateOwnDisplayName,
} from './me.queries.ts';
import type { MfaFactorRow } from './me.queries.ts';

export function getMe(db: Database, principal: Principal): Promise<Me> {
  return db.asCaller(principal, (sql) => readMe(sql, principal));
}

export function updateMe(
  db: Database,
  principal: Principal,
  changes: UpdateMe,
  expected: ExpectedVersion,
): Promise<Me> {
  return db.asCaller(principal, async (sql) => {
    // The update and the reads behind it travel together: statements run in order, so the reads see it.
    const update =
      changes.display_name === undefined
        ? Promise.resolve(false)
        : updateOwnDisplayName(sql, changes.display_name, expected);
    const [changed, me] = await Promise.all([update, readMe(sql, principal)]);
    if (!changed) requireExpectedVersion(me.version, expected);
    return me;
  });
}

/** The account's three reads, sent together with the unit of work's COMMIT behind them (0016). */
async function readMe(sql: Sql, principal: Principal): Promise<Me> {
  const [profile, account, factorRows] = await Promise.all([
    selectOwnProfile(sql),
    selectOwnAccount(sql),
    selectOwnMfaFactors(lastStatementOf(sql)),
  ]);
  // The session check has just seen the user, and the profile trigger makes a profile with every user.
  if (!profile || !account?.email) throw new Error('the caller has no profile or no e-mail address');
  const factors = factorRows.map(toMfaFactor);
  return {
    object: 'user',
    id: principal.user_id,
    email: account.email,
    display_name: profile.display_name,
    avatar_url: null,
    aal: principal.aal,
    credential: credentialOf(principal),
    mfa: { enabled: factors.some((factor) => factor.status === 'verified'), factors },
    version: profile.version,
    created_at: account.created_at.toISOString(),
    updated_at: profile.updated_at.toISOString(),
  };
}

function credentialOf({ api_token }: Principal): Me['credential'] {
  return api_token
    ? { type: 'api_token', api_token_id: api_token.id, scope: api_token.scope }
    : { type: 'session', api_token_id: null, scope: null };
}

function toMfaFactor(row: MfaFactorRow): MfaFactor {
  return {
    id: row.id,
    friendly_name: row.friendly_name,
    factor_type: row.factor_type,
    status: row.status,
    created_at: row.created_at.toISOString(),
  };
}
