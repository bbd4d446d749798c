/**
 * What the fault tests share: a workspace with a token seeded straight into the database, calls retried
 * until acknowledged, and waiting for the API to come up.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import {
  displayPrefixOf,
  generateApiTokenSecret,
  hashApiToken,
} from '../../supabase/functions/_shared/auth/api-token-secret.ts';

/** Calls until the API acknowledges (2xx), retrying with the same Idempotency-Key on 503 and 409. */
export async function untilAcknowledged(
  send: () => Promise<{ status: number; body: unknown }>,
): Promise<unknown> {
  for (;;) {
    const answer = await send().catch(() => ({ status: 0, body: undefined }));
    if (answer.status >= 200 && answer.status < 300) return answer.body;
    if (![0, 409, 503].includes(answer.status)) {
      throw new Error(`unexpected ${answer.status}: ${JSON.stringify(answer.body)}`);
    }
    await sleep(100);
  }
}

/** A user owning workspace `fault` with project `FLT`, and a write API token for them. */
export async function seedWorkspaceWithToken(url: string): Promise<string> {
  const secret = generateApiTokenSecret();
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const userId = randomUUID();
    await db.query(
      `insert into auth.users (id, email, aud, role, email_confirmed_at, created_at, updated_at)
       values ($1, 'fault@example.com', 'authenticated', 'authenticated', now(), now(), now())`,
      [userId],
    );
    const {
      rows: [workspace],
    } = await db.query<{ id: string }>(
      `insert into public.workspaces (slug, name, created_by) values ('fault', 'Fault', $1) returning id`,
      [userId],
    );
    await db.query(`insert into public.memberships (workspace_id, user_id, role) values ($1, $2, 'owner')`, [
      workspace?.id,
      userId,
    ]);
    await db.query(
      `insert into public.projects (workspace_id, key, name, created_by) values ($1, 'FLT', 'Fault', $2)`,
      [workspace?.id, userId],
    );
    await db.query(
      `insert into public.api_tokens (user_id, name, prefix, token_hash, scope, expires_at)
       values ($1, 'fault', $2, decode($3, 'hex'), 'write', now() + interval '1 day')`,
      [userId, displayPrefixOf(secret), await hashApiToken(secret)],
    );
  } finally {
    await db.end();
  }
  return secret;
}

export async function waitForHealth(base: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const ok = await fetch(`${base}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await sleep(250);
  }
  throw new Error('the API function did not become healthy');
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
