/**
 * The export's budget is spent with the credential's check (docs/decisions/0016), when the database says
 * the caller is an owner or admin of the workspace; the export takes the count over. Any other answer
 * hands it back after the answer, so that refused attempts still do not spend it.
 */
import { describe, expect, it } from 'vitest';
import { runAfterResponseSettled } from '../../supabase/functions/_shared/after-response.ts';
import { useTestApp } from '../support/api-app.ts';
import { callApi, expectProblem } from '../support/api-request.ts';
import { withBearer } from '../support/test-users.ts';
import { createWorkspaceWithRoles, type WorkspaceFixture } from '../support/workspace-fixture.ts';
import { asService } from '../support/service-transaction.ts';

const api = useTestApp();

const exportAs = (bearer: string, fixture: WorkspaceFixture) =>
  callApi(api.app, `${fixture.path}/export`, withBearer(bearer));

async function budgetSpent(fixture: WorkspaceFixture): Promise<number> {
  const [row] = await asService(api.db, (sql) =>
    sql.query<{ hits: number }>('select hits from private.rate_limit_counters where bucket = $1', [
      `export:${fixture.id}`,
    ]),
  );
  return row?.hits ?? 0;
}

describe('the export budget', () => {
  it('is spent once by an export', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    expect((await exportAs(fixture.owner.accessToken, fixture)).status).toBe(200);
    await runAfterResponseSettled();
    expect(await budgetSpent(fixture)).toBe(1);
  });

  it('is handed back when an admin is refused after the check spent it (403 mfa_required)', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    await asService(api.db, (sql) =>
      sql.query('update public.workspaces set require_mfa = true where id = $1', [fixture.id]),
    );
    expectProblem(await exportAs(fixture.admin.accessToken, fixture), 403, 'mfa_required');
    await runAfterResponseSettled();
    expect(await budgetSpent(fixture)).toBe(0);
  });

  it('is not spent by a member or an outsider', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    expectProblem(await exportAs(fixture.member.accessToken, fixture), 403, 'forbidden');
    expectProblem(await exportAs(fixture.outsider.accessToken, fixture), 404, 'not_found');
    await runAfterResponseSettled();
    expect(await budgetSpent(fixture)).toBe(0);
  });

  it('is not sent for an address whose slug names no workspace (404, not a failed statement)', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const response = await callApi(
      api.app,
      `/api/v1/workspaces/${fixture.slug}%00/export`,
      withBearer(fixture.owner.accessToken),
    );
    expectProblem(response, 404, 'not_found');
  });
});
