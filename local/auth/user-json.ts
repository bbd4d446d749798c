import type { IdentityRow, UserRow } from './users.queries.ts';

const OPTIONAL_TIMESTAMPS = [
  'email_confirmed_at',
  'phone_confirmed_at',
  'confirmed_at',
  'confirmation_sent_at',
  'recovery_sent_at',
  'email_change_sent_at',
  'invited_at',
  'last_sign_in_at',
  'banned_until',
  'deleted_at',
] as const;

/** The User object of GoTrue's API: null timestamps are omitted, `factors` is absent without factors. */
export function userJson(user: UserRow, identities: IdentityRow[]): Record<string, unknown> {
  const timestamps = Object.fromEntries(
    OPTIONAL_TIMESTAMPS.flatMap((key) => (user[key] ? [[key, user[key].toISOString()]] : [])),
  );
  return {
    id: user.id,
    aud: user.aud ?? 'authenticated',
    role: user.role ?? 'authenticated',
    email: user.email ?? '',
    phone: user.phone ?? '',
    ...timestamps,
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    identities: identities.map(identityJson),
    created_at: user.created_at.toISOString(),
    updated_at: user.updated_at.toISOString(),
    is_anonymous: user.is_anonymous,
  };
}

function identityJson(identity: IdentityRow): Record<string, unknown> {
  return {
    identity_id: identity.id,
    id: identity.provider_id,
    user_id: identity.user_id,
    identity_data: identity.identity_data,
    provider: identity.provider,
    last_sign_in_at: identity.last_sign_in_at?.toISOString() ?? null,
    created_at: identity.created_at.toISOString(),
    updated_at: identity.updated_at.toISOString(),
    email: identity.email,
  };
}
