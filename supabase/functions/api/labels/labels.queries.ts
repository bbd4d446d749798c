/**
 * SQL for labels. Runs as the caller: RLS shows only the labels of their workspaces, lets editors
 * (members and above) create them and only admins rename, recolor or delete them. An insert past
 * LABELS_PER_WORKSPACE is refused by a trigger (P0001, hint `limit_reached`), under a lock of the workspace.
 */
import type { Label } from '../../_shared/api-types.ts';
import type { Sql } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import { LABELS_PER_WORKSPACE } from '../../_shared/limits.ts';
import { rowsToFetch, type PageRequest } from '../../_shared/pages.ts';
import {
  brokenUniqueConstraint,
  raisedErrorCode,
  refusing,
  type Refusals,
} from '../../_shared/sql-errors.ts';
import type { ExpectedVersion } from '../../_shared/versions.ts';
import {
  callerWorkspaceIdAt,
  workspaceIdOf,
  workspaceValueOf,
  type WorkspaceReference,
} from '../workspaces/workspace-access.queries.ts';
import type { LowerNameIdKey } from './label-order.ts';

/** A label in a list: as the API answers it, with its place in the list. */
export interface LabelListRow extends Record<string, unknown> {
  label: Label;
  sort_key: LowerNameIdKey;
}

export interface NewLabel {
  name: string;
  color: string;
}

export interface LabelChanges {
  name?: string | undefined;
  color?: string | undefined;
}

/** The unique index on (workspace_id, lower(name)), as the migration names it. */
const LABEL_NAME_INDEX = 'labels_workspace_id_name_idx';

/** The label as the API answers it, built by the same function as the event log's and the export's. */
const LABEL_JSON = 'private.label_json(l) as label';

export async function insertLabel(sql: Sql, workspaceId: string, label: NewLabel): Promise<Label> {
  const [row] = await refusing(
    sql.query<{ label: Label }>(
      `insert into public.labels as l (workspace_id, name, color, created_by)
       values ($1, $2, $3, (select auth.uid()))
       returning ${LABEL_JSON}`,
      [workspaceId, label.name, label.color],
    ),
    labelWriteRefusals(label.name),
  );
  if (!row) throw new Error('insert into labels returned no row');
  return row.label;
}

/** A page of the labels of the caller's workspace `slug`, by name whatever the case, then id. */
export function selectLabels(
  sql: Sql,
  slug: string,
  page: PageRequest<LowerNameIdKey>,
): Promise<LabelListRow[]> {
  const [lowerName, id] = page.cursor ?? [null, null];
  return sql.query<LabelListRow>(
    `select ${LABEL_JSON}, json_build_array(lower(name), id) as sort_key from public.labels l
     where workspace_id = ${callerWorkspaceIdAt('$1')}
       and ($2::text is null or (lower(name), id) > ($2::text, $3::uuid))
     order by lower(name), id
     limit $4`,
    [slug, lowerName, id, rowsToFetch(page)],
  );
}

export async function selectLabel(
  sql: Sql,
  workspace: WorkspaceReference,
  id: string,
): Promise<Label | undefined> {
  const [row] = await sql.query<{ label: Label }>(
    `select ${LABEL_JSON} from public.labels l where workspace_id = ${workspaceIdOf(workspace, '$1')} and id = $2`,
    [workspaceValueOf(workspace), id],
  );
  return row?.label;
}

/** Applies the changes if the label is at an expected version; undefined when no row changed. */
export async function updateLabel(
  sql: Sql,
  workspaceId: string,
  id: string,
  changes: LabelChanges,
  expected: ExpectedVersion,
): Promise<Label | undefined> {
  const [row] = await refusing(
    sql.query<{ label: Label }>(
      `update public.labels l set name = coalesce($3, name), color = coalesce($4, color)
       where workspace_id = $1 and id = $2 and ($5::integer[] is null or version = any($5::integer[]))
       returning ${LABEL_JSON}`,
      [workspaceId, id, changes.name ?? null, changes.color ?? null, expected],
    ),
    labelWriteRefusals(changes.name),
  );
  return row?.label;
}

/** Deletes the label if it is at an expected version; whether a row was deleted. */
export async function deleteLabel(
  sql: Sql,
  workspaceId: string,
  id: string,
  expected: ExpectedVersion,
): Promise<boolean> {
  const rows = await sql.query<{ id: string }>(
    `delete from public.labels
     where workspace_id = $1 and id = $2 and ($3::integer[] is null or version = any($3::integer[]))
     returning id`,
    [workspaceId, id, expected],
  );
  return rows.length > 0;
}

/** Past LABELS_PER_WORKSPACE (the trigger's `limit_reached`), or a name another label has in any case. */
const labelWriteRefusals =
  (name: string | undefined): Refusals =>
  (error) => {
    if (raisedErrorCode(error) === 'limit_reached') {
      return new AppError(
        'limit_reached',
        `This workspace already has ${LABELS_PER_WORKSPACE} labels, the limit (labels_per_workspace). Delete one first.`,
      );
    }
    if (brokenUniqueConstraint(error) !== LABEL_NAME_INDEX) return undefined;
    return new AppError(
      'label_exists',
      `This workspace already has a label named "${name}" (names are compared whatever the case).`,
      { errors: [{ path: 'body.name', code: 'label_exists', message: 'is already taken' }] },
    );
  };
