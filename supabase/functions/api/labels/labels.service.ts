/**
 * Labels: create (members and above, within LABELS_PER_WORKSPACE), list (by name), read, rename or
 * recolor and delete (admins). Names are unique per workspace whatever the case.
 */
import type { CreateLabel, Label, UpdateLabel } from '../../_shared/api-types.ts';
import { asLastStatement, type Database, type Sql } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import { pageOf, type Page, type PageRequest } from '../../_shared/pages.ts';
import type { Principal } from '../../_shared/principal.ts';
import {
  conditionalWriteFailure,
  requireExpectedVersion,
  type ExpectedVersion,
} from '../../_shared/versions.ts';
import {
  enterWorkspace,
  enterWorkspaceWith,
  readInWorkspace,
  requireRole,
  type WorkspaceAccess,
} from '../workspaces/workspace-access.ts';
import type { LowerNameIdKey } from './label-order.ts';
import {
  deleteLabel as deleteLabelRow,
  insertLabel,
  selectLabel,
  selectLabels,
  updateLabel as updateLabelRow,
} from './labels.queries.ts';

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
    return insertLabel(asLastStatement(sql), access.workspaceId, request);
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
    return pageOf(found, page, (row) => row.label);
  });
}

export function getLabel(db: Database, principal: Principal, address: LabelAddress): Promise<Label> {
  return db.asCaller(principal, async (sql) => {
    const { found } = await readInWorkspace(sql, principal, address.slug, (last) =>
      selectLabel(last, { slug: address.slug }, address.id),
    );
    if (!found) throw labelNotFound();
    return found;
  });
}

/**
 * In two round trips: the access and the label, then the write with its COMMIT. If-Match and a missing
 * label are judged on the label as read; an empty merge patch changes nothing but answers them too.
 */
export async function updateLabel(
  db: Database,
  principal: Principal,
  address: LabelAddress,
  changes: UpdateLabel,
  expected: ExpectedVersion,
): Promise<Label> {
  const updated = await db.asCaller(principal, async (sql) => {
    const access = await enterLabel(sql, principal, address, 'rename or recolor labels', expected);
    if (Object.keys(changes).length === 0) return access.label;
    return updateLabelRow(asLastStatement(sql), access.workspaceId, address.id, changes, expected);
  });
  if (updated) return updated;
  throw conditionalWriteFailure(await currentLabelVersion(db, principal, address), labelNotFound().detail);
}

export async function deleteLabel(
  db: Database,
  principal: Principal,
  address: LabelAddress,
  expected: ExpectedVersion,
): Promise<void> {
  const deleted = await db.asCaller(principal, async (sql) => {
    const access = await enterLabel(sql, principal, address, 'delete labels', expected);
    return deleteLabelRow(asLastStatement(sql), access.workspaceId, address.id, expected);
  });
  if (deleted) return;
  throw conditionalWriteFailure(await currentLabelVersion(db, principal, address), labelNotFound().detail);
}

/** An admin's access and the label, read together; `404` without it, `412` at another version. */
async function enterLabel(
  sql: Sql,
  principal: Principal,
  address: LabelAddress,
  action: string,
  expected: ExpectedVersion,
): Promise<WorkspaceAccess & { label: Label }> {
  const { access, found } = await enterWorkspaceWith(sql, principal, address.slug, () =>
    selectLabel(sql, { slug: address.slug }, address.id),
  );
  requireRole(access, 'admin', action);
  if (!found) throw labelNotFound();
  requireExpectedVersion(found.version, expected);
  return { ...access, label: found };
}

/**
 * The label's version now, in a transaction of its own: after a write that changed no row because the
 * label changed or went since it was read, and the write's transaction is over.
 */
function currentLabelVersion(
  db: Database,
  principal: Principal,
  address: LabelAddress,
): Promise<number | undefined> {
  return db.asCaller(principal, async (sql) => {
    const row = await selectLabel(asLastStatement(sql), { slug: address.slug }, address.id);
    return row?.version;
  });
}
