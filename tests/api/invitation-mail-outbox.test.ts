/**
 * Invitation mail leaves from an outbox after the invitation's transaction commits (the first security
 * review, item 8; docs/decisions/0014). A request with an Idempotency-Key runs in one transaction that
 * commits after the route: a mail sent from the route would go out even when that commit then fails.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { runAfterResponseSettled } from '../../supabase/functions/_shared/after-response.ts';
import type { Mailer, OutgoingMail } from '../../supabase/functions/_shared/mail/mailer.ts';
import { useTestApp } from '../support/api-app.ts';
import { callApi } from '../support/api-request.ts';
import { jsonRequest } from '../support/resource-calls.ts';
import { withBearer } from '../support/test-users.ts';
import { createWorkspaceWithRoles, type WorkspaceFixture } from '../support/workspace-fixture.ts';
import { asService } from '../support/service-transaction.ts';

const sent: OutgoingMail[] = [];
let relayDown = false;
const mailer: Mailer = {
  send: (mail) => {
    if (relayDown) return Promise.reject(new Error('relay down'));
    sent.push(mail);
    return Promise.resolve();
  },
};

const api = useTestApp({ mailer });

const sentTo = (email: string) => sent.filter((mail) => mail.to === email);

function invite(workspace: WorkspaceFixture, email: string, idempotencyKey?: string) {
  const headers: Record<string, string> = idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {};
  return callApi(
    api.app,
    `${workspace.path}/invitations`,
    withBearer(workspace.owner.accessToken, jsonRequest('POST', { email, role: 'member' }, headers)),
  );
}

interface OutboxRow extends Record<string, unknown> {
  sent: boolean;
  has_mail: boolean;
  attempts: number;
}

function outboxOf(email: string): Promise<OutboxRow[]> {
  return asService(api.db, (sql) =>
    sql.query<OutboxRow>(
      `select o.sent_at is not null as sent, o.mail is not null as has_mail, o.attempts
       from private.mail_outbox o join public.invitations i on i.id = o.invitation_id where i.email = $1`,
      [email],
    ),
  );
}

describe('invitation mail', () => {
  let workspace: WorkspaceFixture;

  beforeAll(async () => {
    workspace = await createWorkspaceWithRoles(api.db);
    // A commit that fails after the invitation was written: a deferred check that refuses `doomed-` addresses.
    await asService(api.db, async (sql) => {
      await sql.query(`create function public.refuse_doomed() returns trigger language plpgsql as $$
        begin raise exception 'doomed invitation'; end $$`);
      await sql.query(`create constraint trigger invitations_refuse_doomed after insert on public.invitations
        deferrable initially deferred for each row when (new.email like 'doomed-%')
        execute function public.refuse_doomed()`);
    });
  });

  it('goes out once the invitation is committed, with or without an Idempotency-Key', async () => {
    const [plain, keyed] = [`plain-${randomUUID()}@example.com`, `keyed-${randomUUID()}@example.com`];
    expect((await invite(workspace, plain)).status).toBe(201);
    expect((await invite(workspace, keyed, randomUUID())).status).toBe(201);
    // The answer waits for its own mail to be tried; marking it sent comes after it (0016).
    await runAfterResponseSettled();

    expect(sentTo(plain)).toHaveLength(1);
    expect(sentTo(keyed)).toHaveLength(1);
    expect(sentTo(keyed)[0]?.text).toContain('/invite/');
    // Sent, and the link no longer rests in the outbox.
    expect(await outboxOf(plain)).toEqual([{ sent: true, has_mail: false, attempts: 1 }]);
  });

  it('never goes out for an invitation whose transaction failed after it was written', async () => {
    const doomed = `doomed-${randomUUID()}@example.com`;
    const response = await invite(workspace, doomed, randomUUID());

    expect(response.status).toBe(500);
    expect(sentTo(doomed)).toEqual([]);
    const invitations = await asService(api.db, (sql) =>
      sql.query('select id from public.invitations where email = $1', [doomed]),
    );
    expect(invitations).toEqual([]);
  });

  it('is sent again after the relay failed, with the next mail that goes out', async () => {
    const [first, second] = [`first-${randomUUID()}@example.com`, `second-${randomUUID()}@example.com`];
    relayDown = true;
    try {
      expect((await invite(workspace, first)).status).toBe(201);
      await runAfterResponseSettled();
    } finally {
      relayDown = false;
    }
    expect(sentTo(first)).toEqual([]);
    expect(await outboxOf(first)).toEqual([{ sent: false, has_mail: true, attempts: 1 }]);
    // Due again at once, as if its back-off had passed.
    await asService(api.db, (sql) =>
      sql.query(
        `update private.mail_outbox set next_attempt_at = now()
         where invitation_id = (select id from public.invitations where email = $1)`,
        [first],
      ),
    );

    expect((await invite(workspace, second)).status).toBe(201);
    // The retries go out after the answer, which does not wait for them (0016).
    await runAfterResponseSettled();

    expect(sentTo(second)).toHaveLength(1);
    expect(sentTo(first)).toHaveLength(1);
    expect(await outboxOf(first)).toEqual([{ sent: true, has_mail: false, attempts: 2 }]);
  });
});
