/**
 * SQL for a workspace's members. Runs as the caller: RLS shows the memberships and profiles of the
 * caller's own workspaces, lets owners and admins change roles they outrank and remove members, and lets
 * anyone leave. E-mail addresses live in auth.users, beyond the caller's reach, so they come from
 * `private.member_emails`, which answers only to members of the workspace.
 */
import type { Member, WorkspaceRole } from '../../_shared/api-types.ts';
import type { Sql } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import type { CreatedAtIdKey, PageRequest } from '../../_shared/pages.ts';
import { rowsToFetch } from '../../_shared/pages.ts';
import { raisedErrorCode, refusing, type Refusals } from '../../_shared/sql-errors.ts';
import type { ExpectedVersion } from '../../_shared/versions.ts';
import {
  callerWorkspaceIdAt,
  workspaceIdOf,
  workspaceValueOf,
  type WorkspaceReference,
} from '../workspaces/workspace-access.queries.ts';

/** A member in a list: as the API answers it, with its place in the list. */
export interface MemberListRow extends Record<string, unknown> {
  member: Member;
  sort_key: CreatedAtIdKey;
}

/**
 * The member as the API answers it: `memberJson`, what `private.member_json` builds for the event log and
 * the export, and the e-mail address `e.email`, which only the members list shows. `avatar_url` holds the
 * avatar's Storage path as it comes out of here: the service signs it into a URL (withMemberAvatars).
 */
const withEmail = (memberJson: string) =>
  `${memberJson} || jsonb_build_object('email', e.email,
     'avatar_url', (select p.avatar_path from public.profiles p where p.user_id = e.user_id)) as member`;
const MEMBER_JSON = withEmail('private.member_json(m)');

/**
 * The members of the workspace whose id is the SQL expression `workspaceId`, with their e-mails, as
 * `from … where …`: the statement goes on with `and …`.
 */
const membersOf = (workspaceId: string) => `public.memberships m
  join private.member_emails(${workspaceId}) e on e.user_id = m.user_id
  where m.workspace_id = ${workspaceId}`;

/** A page of the members of the caller's workspace `slug`, in the order they joined. */
export function selectMembers(
  sql: Sql,
  slug: string,
  page: PageRequest<CreatedAtIdKey>,
): Promise<MemberListRow[]> {
  const [joinedAt, userId] = page.cursor ?? [null, null];
  return sql.query<MemberListRow>(
    `select ${MEMBER_JSON}, json_build_array(m.created_at, m.user_id) as sort_key
     from ${membersOf(callerWorkspaceIdAt('$1'))}
       and ($2::timestamptz is null or (m.created_at, m.user_id) > ($2::timestamptz, $3::uuid))
     order by m.created_at, m.user_id
     limit $4`,
    [slug, joinedAt, userId, rowsToFetch(page)],
  );
}

export async function selectMember(
  sql: Sql,
  workspace: WorkspaceReference,
  userId: string,
): Promise<Member | undefined> {
  const [row] = await sql.query<{ member: Member }>(
    `select ${MEMBER_JSON} from ${membersOf(workspaceIdOf(workspace, '$1'))} and m.user_id = $2`,
    [workspaceValueOf(workspace), userId],
  );
  return row?.member;
}

export async function selectMemberVersion(
  sql: Sql,
  workspaceId: string,
  userId: string,
): Promise<number | undefined> {
  const [row] = await sql.query<{ version: number }>(
    'select version from public.memberships where workspace_id = $1 and user_id = $2',
    [workspaceId, userId],
  );
  return row?.version;
}

/** Whom a `last_owner` refusal is about: the caller themself, or another member, by name. */
export interface MemberNamed {
  displayName: string;
  isCaller: boolean;
}

/** Sets the role if the membership is at an expected version; the member as changed, undefined if not. */
export async function updateMemberRole(
  sql: Sql,
  workspaceId: string,
  userId: string,
  role: WorkspaceRole,
  expected: ExpectedVersion,
  member: MemberNamed,
): Promise<Member | undefined> {
  const [row] = await refusing(
    sql.query<{ member: Member }>(
      `with changed as (
         update public.memberships m set role = $3
         where workspace_id = $1 and user_id = $2 and ($4::integer[] is null or version = any($4::integer[]))
         returning m.user_id, private.member_json(m) as json
       )
       select ${withEmail('changed.json')} from changed
         join private.member_emails($1) e on e.user_id = changed.user_id`,
      [workspaceId, userId, role, expected],
    ),
    lastOwnerRefusal(member),
  );
  return row?.member;
}

/** Removes the membership if it is at an expected version; whether a row went. */
export async function deleteMember(
  sql: Sql,
  workspaceId: string,
  userId: string,
  expected: ExpectedVersion,
  member: MemberNamed,
): Promise<boolean> {
  const rows = await refusing(
    sql.query<{ user_id: string }>(
      `delete from public.memberships
       where workspace_id = $1 and user_id = $2 and ($3::integer[] is null or version = any($3::integer[]))
       returning user_id`,
      [workspaceId, userId, expected],
    ),
    lastOwnerRefusal(member),
  );
  return rows.length > 0;
}

/** The trigger's `last_owner`: the workspace would be left without an owner. */
const lastOwnerRefusal =
  ({ displayName, isCaller }: MemberNamed): Refusals =>
  (error) => {
    if (raisedErrorCode(error) !== 'last_owner') return undefined;
    const who = isCaller ? 'You are' : `${displayName} is`;
    return new AppError(
      'last_owner',
      `${who} the only owner of this workspace: make someone else an owner first.`,
    );
  };
