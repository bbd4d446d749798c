/**
 * Webhooks (docs/webhooks.md): create (the secret answered once), list, read, change, delete, rotate the
 * secret, and send a test; owners and admins only. A URL is checked for where it leads before anything
 * is written, so no transaction waits on DNS.
 */
import type { CreateWebhook, NewWebhook, UpdateWebhook, Webhook } from '../../_shared/api-types.ts';
import { asLastStatement, type Database, type Sql } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import { pageOf, type CreatedAtIdKey, type Page, type PageRequest } from '../../_shared/pages.ts';
import type { Principal } from '../../_shared/principal.ts';
import {
  conditionalWriteFailure,
  requireExpectedVersion,
  type ExpectedVersion,
} from '../../_shared/versions.ts';
import { generateWebhookSecret } from '../../_shared/webhooks/standard-webhooks.ts';
import {
  enterWorkspace,
  enterWorkspaceWith,
  readInWorkspace,
  requireRole,
  type WorkspaceAccess,
} from '../workspaces/workspace-access.ts';
import { requireWebhookDestination, type WebhookDestinations } from './webhook-destination.ts';
import {
  deleteWebhook as deleteWebhookRow,
  insertWebhook,
  selectWebhook,
  selectWebhooks,
  setWebhookSecret,
  updateWebhook as updateWebhookRow,
} from './webhooks.queries.ts';

export interface WebhookAddress {
  slug: string;
  id: string;
}

export interface WebhooksDeps {
  db: Database;
  webhookDestinations?: WebhookDestinations | undefined;
}

const MANAGE = 'manage webhooks';

export function webhookNotFound(): AppError {
  return new AppError('not_found', 'This workspace has no webhook with this id.');
}

export async function createWebhook(
  { db, webhookDestinations }: WebhooksDeps,
  principal: Principal,
  slug: string,
  request: CreateWebhook,
): Promise<NewWebhook> {
  const url = await requireWebhookDestination(request.url, webhookDestinations);
  const secret = generateWebhookSecret();
  const id = crypto.randomUUID();
  const webhook = await db.asCaller(principal, async (sql) => {
    const access = await enterWorkspace(sql, principal, slug);
    requireRole(access, 'admin', MANAGE);
    // The secret goes behind the creation, in its round trip: if the creation fails, so does it.
    const [created, secured] = await Promise.allSettled([
      insertWebhook(sql, access.workspaceId, id, {
        url,
        events: request.events,
        active: request.active,
      }),
      setWebhookSecret(asLastStatement(sql), id, secret, false),
    ]);
    if (created.status === 'rejected') throw created.reason;
    if (secured.status === 'rejected') throw secured.reason;
    return created.value;
  });
  return { ...webhook, secret };
}

export function listWebhooks(
  db: Database,
  principal: Principal,
  slug: string,
  page: PageRequest<CreatedAtIdKey>,
): Promise<Page<Webhook>> {
  return db.asCaller(principal, async (sql) => {
    const { access, found } = await readInWorkspace(sql, principal, slug, (last) =>
      selectWebhooks(last, slug, page),
    );
    requireRole(access, 'admin', MANAGE);
    return pageOf(found, page, (row) => row.webhook);
  });
}

export function getWebhook(db: Database, principal: Principal, address: WebhookAddress): Promise<Webhook> {
  return db.asCaller(principal, async (sql) => {
    const { access, found } = await readInWorkspace(sql, principal, address.slug, (last) =>
      selectWebhook(last, address.slug, address.id),
    );
    requireRole(access, 'admin', MANAGE);
    if (!found) throw webhookNotFound();
    return found;
  });
}

export async function updateWebhook(
  { db, webhookDestinations }: WebhooksDeps,
  principal: Principal,
  address: WebhookAddress,
  changes: UpdateWebhook,
  expected: ExpectedVersion,
): Promise<Webhook> {
  const url =
    changes.url === undefined ? undefined : await requireWebhookDestination(changes.url, webhookDestinations);
  const updated = await db.asCaller(principal, async (sql) => {
    const access = await enterWebhook(sql, principal, address, expected);
    if (Object.keys(changes).length === 0) return access.webhook;
    return updateWebhookRow(
      asLastStatement(sql),
      access.workspaceId,
      address.id,
      { ...changes, url },
      expected,
    );
  });
  if (updated) return updated;
  throw conditionalWriteFailure(
    await currentWebhookVersion(db, principal, address),
    webhookNotFound().detail,
  );
}

export async function deleteWebhook(
  db: Database,
  principal: Principal,
  address: WebhookAddress,
  expected: ExpectedVersion,
): Promise<void> {
  const deleted = await db.asCaller(principal, async (sql) => {
    const access = await enterWebhook(sql, principal, address, expected);
    return deleteWebhookRow(asLastStatement(sql), access.workspaceId, address.id, expected);
  });
  if (deleted) return;
  throw conditionalWriteFailure(
    await currentWebhookVersion(db, principal, address),
    webhookNotFound().detail,
  );
}

/** A new secret, answered once; the old one signs too for 24 hours. */
export async function rotateWebhookSecret(
  db: Database,
  principal: Principal,
  address: WebhookAddress,
): Promise<NewWebhook> {
  const secret = generateWebhookSecret();
  const webhook = await db.asCaller(principal, async (sql) => {
    const { webhook } = await enterWebhook(sql, principal, address, null);
    await setWebhookSecret(asLastStatement(sql), webhook.id, secret, true);
    return webhook;
  });
  return { ...webhook, secret };
}

/** An admin's access and the webhook, read together; `404` without it, `412` at another version. */
export async function enterWebhook(
  sql: Sql,
  principal: Principal,
  address: WebhookAddress,
  expected: ExpectedVersion,
): Promise<WorkspaceAccess & { webhook: Webhook }> {
  const { access, found } = await enterWorkspaceWith(sql, principal, address.slug, () =>
    selectWebhook(sql, address.slug, address.id),
  );
  requireRole(access, 'admin', MANAGE);
  if (!found) throw webhookNotFound();
  requireExpectedVersion(found.version, expected);
  return { ...access, webhook: found };
}

function currentWebhookVersion(
  db: Database,
  principal: Principal,
  address: WebhookAddress,
): Promise<number | undefined> {
  return db.asCaller(principal, async (sql) => {
    const row = await selectWebhook(asLastStatement(sql), address.slug, address.id);
    return row?.version;
  });
}
