/**
 * Labels: create (members and above, within LABELS_PER_WORKSPACE), list (by name), read, rename or
 * recolor and delete (admins). Names are unique per workspace whatever the case.
 */
import type { components } from '../../../../api-spec/schema.d.ts';
import type { Database, Sql } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import { LABELS_PER_WORKSPACE } from '../../_shared/limits.ts';
import { pageOf, type Page, type PageRequest } from '../../_shared/pages.ts';
import type { Principal } from '../../_shared/principal.ts';
import { brokenUniqueConstraint, raisedErrorCode } from '../../_shared/sql-errors.ts';
import {
  conditionalWriteFailure,
  requireExpectedVersion,
  type ExpectedVersion,
} from '../../_shared/versions.ts';
import {
  enterWorkspace,
  readInWorkspace,
  requireRole,
  type WorkspaceAccess,
} from '../workspaces/workspace-access.ts';
import type { LowerNameIdKey } from './label-order.ts';
import {
  deleteLabel as deleteLabelRow,
  insertLabel,
  LABEL_NAME_INDEX,
  selectLabel,
  selectLabels,
  selectLabelVersion,
  updateLabel as updateLabelRow,
  type LabelRow,
} from './labels.queries.ts';

type Label = components['schemas']['Label'];
type CreateLabel = components['schemas']['CreateLabel'];
type UpdateLabel = components['schemas']['UpdateLabel'];

export interface LabelAddress {
  slug: string;
  id: string;
}

export function labelNotFound(): AppError {
  return new AppError('not_found', 'This workspace has no label with this id.');
}

export function createLabel(
  db: Database,
  principal: Principal,
  slug: string,
  request: CreateLabel,
): Promise<Label> {
  return db.asCaller(principal, async (sql) => {
    const access = await enterWorkspace(sql, principal, slug);
    requireRole(access, 'member', 'create labels');
    try {
      return toLabel(await insertLabel(sql, access.workspaceId, request));
    } catch (error) {
      throw labelWriteRefusal(error, request.name);
    }
  });
}

export function listLabels(
  db: Database,
  principal: Principal,
  slug: string,
  page: PageRequest<LowerNameIdKey>,
): Promise<Page<Label>> {
  return db.asCaller(principal, async (sql) => {
    const { found } = await readInWorkspace(sql, principal, slug, (last) => selectLabels(last, slug, page));
    return pageOf(found, page, toLabel);
  });
}

export function getLabel(db: Database, principal: Principal, address: LabelAddress): Promise<Label> {
  return db.asCaller(principal, async (sql) => {
    const { found } = await readInWorkspace(sql, principal, address.slug, (last) =>
      selectLabel(last, { slug: address.slug }, address.id),
    );
    if (!found) throw labelNotFound();
    return toLabel(found);
  });
}

export function updateLabel(
  db: Database,
  principal: Principal,
  address: LabelAddress,
  changes: UpdateLabel,
  expected: ExpectedVersion,
): Promise<Label> {
  return db.asCaller(principal, async (sql) => {
    const access = await enterWorkspace(sql, principal, address.slug);
    requireRole(access, 'admin', 'rename or recolor labels');
    if (Object.keys(changes).length === 0) return toLabel(await unchanged(sql, access, address.id, expected));
    try {
      const updated = await updateLabelRow(sql, access.workspaceId, address.id, changes, expected);
      if (updated) return toLabel(updated);
    } catch (error) {
      throw labelWriteRefusal(error, changes.name);
    }
    const current = await selectLabelVersion(sql, access.workspaceId, address.id);
    throw conditionalWriteFailure(current, labelNotFound().detail);
  });
}

export function deleteLabel(
  db: Database,
  principal: Principal,
  address: LabelAddress,
  expected: ExpectedVersion,
): Promise<void> {
  return db.asCaller(principal, async (sql) => {
    const access = await enterWorkspace(sql, principal, address.slug);
    requireRole(access, 'admin', 'delete labels');
    if (await deleteLabelRow(sql, access.workspaceId, address.id, expected)) return;
    const current = await selectLabelVersion(sql, access.workspaceId, address.id);
    throw conditionalWriteFailure(current, labelNotFound().detail);
  });
}

/** An empty merge patch changes nothing, but still answers If-Match as a write would. */
async function unchanged(sql: Sql, access: WorkspaceAccess, id: string, expected: ExpectedVersion) {
  const current = await found(sql, access, id);
  requireExpectedVersion(current.version, expected);
  return current;
}

async function found(sql: Sql, access: WorkspaceAccess, id: string): Promise<LabelRow> {
  const row = await selectLabel(sql, access.workspaceId, id);
  if (!row) throw labelNotFound();
  return row;
}

function labelWriteRefusal(error: unknown, name: string | undefined): unknown {
  if (raisedErrorCode(error) === 'limit_reached') {
    return new AppError(
      'limit_reached',
      `This workspace already has ${LABELS_PER_WORKSPACE} labels, the limit (labels_per_workspace). Delete one first.`,
    );
  }
  if (brokenUniqueConstraint(error) !== LABEL_NAME_INDEX) return error;
  return new AppError(
    'label_exists',
    `This workspace already has a label named "${name}" (names are compared whatever the case).`,
    { errors: [{ path: 'body.name', code: 'label_exists', message: 'is already taken' }] },
  );
}

export function toLabel(row: LabelRow): Label {
  return {
    object: 'label',
    id: row.id,
    workspace_id: row.workspace_id,
    name: row.name,
    color: row.color,
    created_by: row.created_by,
    version: row.version,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
