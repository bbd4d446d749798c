/** The caller's account: their profile, e-mail address, session assurance level and MFA factors. */
import type { Me, MfaFactor, UpdateMe } from '../../_shared/api-types.ts';
import { invalidCredentials } from '../../_shared/auth/unauthenticated.ts';
import { asLastStatement, type Database, type Sql } from '../../_shared/db.ts';
import type { Principal } from '../../_shared/principal.ts';
import { requireExpectedVersion, type ExpectedVersion } from '../../_shared/versions.ts';
import type { FileStore } from '../files/file-store.ts';
import { signedAvatarUrl } from '../files/avatar-urls.ts';
import { selectOwnAccount, selectOwnMfaFactors, selectOwnProfile, updateOwnProfile } from './me.queries.ts';
import type { MfaFactorRow } from './me.queries.ts';

export async function getMe(db: Database, files: FileStore, principal: Principal): Promise<Me> {
  return withAvatarUrl(files, await db.asCaller(principal, (sql) => readMe(sql, principal)));
}

export async function updateMe(
  db: Database,
  files: FileStore,
  principal: Principal,
  changes: UpdateMe,
  expected: ExpectedVersion,
): Promise<Me> {
  const updated = await db.asCaller(principal, async (sql) => {
    // The update and the reads behind it travel together: statements run in order, so the reads see it.
    const update =
      changes.display_name === undefined && changes.time_zone === undefined
        ? Promise.resolve(false)
        : updateOwnProfile(sql, changes, expected);
    const [changed, me] = await Promise.all([update, readMe(sql, principal)]);
    if (!changed) requireExpectedVersion(me.me.version, expected);
    return me;
  });
  return withAvatarUrl(files, updated);
}

/** The account as read, and where its avatar is (signed into `avatar_url` once the transaction is over). */
export interface MeRead {
  me: Me;
  avatarPath: string | null;
}

export async function withAvatarUrl(files: FileStore, { me, avatarPath }: MeRead): Promise<Me> {
  return { ...me, avatar_url: await signedAvatarUrl(files, avatarPath) };
}

/** The account's three reads, sent together with the unit of work's COMMIT behind them (0016). */
export async function readMe(sql: Sql, principal: Principal): Promise<MeRead> {
  const [profile, account, factorRows] = await Promise.all([
    selectOwnProfile(sql),
    selectOwnAccount(sql),
    selectOwnMfaFactors(asLastStatement(sql)),
  ]);
  // The profile trigger makes a profile with every user, and RLS shows it to its owner while their
  // credential stands (decision 0032): a read sent beside its credential's check (0030) finds none when
  // the session ended meanwhile, and that check's own 401 is the answer.
  if (!profile) throw invalidCredentials('The session or token is no longer valid. Sign in again.');
  if (!account?.email) throw new Error('the caller has no e-mail address');
  const factors = factorRows.map(toMfaFactor);
  const me: Me = {
    object: 'user',
    id: principal.user_id,
    email: account.email,
    display_name: profile.display_name,
    avatar_url: null,
    time_zone: profile.time_zone,
    aal: principal.aal,
    credential: credentialOf(principal),
    mfa: { enabled: factors.some((factor) => factor.status === 'verified'), factors },
    version: profile.version,
    created_at: account.created_at.toISOString(),
    updated_at: profile.updated_at.toISOString(),
  };
  return { me, avatarPath: profile.avatar_path };
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
