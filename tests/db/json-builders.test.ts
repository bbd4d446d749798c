/**
 * The json builders the export selects as the caller (private.*_json, each in its resource's migration):
 * they run as the caller, so a row made up by someone outside the workspace tells them nothing they could
 * not read anyway.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { useSqlAsUser } from '../support/sql-as-user.ts';

describe('private.task_json and private.member_json, called by people', () => {
  const sqlTest = useSqlAsUser('json-builders.test');
  let owner: string;
  let colleague: string;
  let outsider: string;
  let projectId: string;
  let workspaceId: string;

  beforeAll(async () => {
    [owner, colleague, outsider] = [
      await sqlTest.newUser(),
      await sqlTest.newUser(),
      await sqlTest.newUser(),
    ];
    await sqlTest.db.query(`update public.profiles set display_name = 'Colleague' where user_id = $1`, [
      colleague,
    ]);
    const workspace = await sqlTest.db.query<{ id: string }>(
      `insert into public.workspaces (slug, name, created_by) values ('json-builders', 'JB', $1) returning id`,
      [owner],
    );
    workspaceId = workspace.rows[0]?.id ?? '';
    await sqlTest.db.query(
      `insert into public.memberships (workspace_id, user_id, role) values ($1, $2, 'owner'), ($1, $3, 'member')`,
      [workspaceId, owner, colleague],
    );
    const project = await sqlTest.db.query<{ id: string }>(
      `insert into public.projects (workspace_id, key, name, created_by) values ($1, 'JB', 'JB', $2) returning id`,
      [workspaceId, owner],
    );
    projectId = project.rows[0]?.id ?? '';
  });

  const madeUpTask = () => ({
    id: '00000000-0000-4000-8000-000000000001',
    workspace_id: workspaceId,
    project_id: projectId,
    number: 7,
    title: 'made up',
    position: 'a0',
  });
  const taskJsonAs = (userId: string) =>
    sqlTest.asUser<{ task: { key: string } | null }>(
      userId,
      'select private.task_json(jsonb_populate_record(null::public.tasks, $1)) as task',
      [madeUpTask()],
    );
  const memberJsonAs = (userId: string) =>
    sqlTest.asUser<{ member: { display_name: string | null } }>(
      userId,
      'select private.member_json(jsonb_populate_record(null::public.memberships, $1)) as member',
      [{ workspace_id: workspaceId, user_id: colleague, role: 'member', version: 1 }],
    );

  test("a member gets the task's key and the colleague's name", async () => {
    expect(await taskJsonAs(owner)).toEqual({ rows: [{ task: expect.objectContaining({ key: 'JB-7' }) }] });
    expect(await memberJsonAs(owner)).toEqual({
      rows: [{ member: expect.objectContaining({ display_name: 'Colleague' }) }],
    });
  });

  test('an outsider learns neither the project key nor the name', async () => {
    expect(await taskJsonAs(outsider)).toEqual({ rows: [{ task: null }] });
    expect(await memberJsonAs(outsider)).toEqual({
      rows: [{ member: expect.objectContaining({ display_name: null }) }],
    });
  });
});
