/**
 * private.project_former_keys (the settings and invitations work): the trigger on projects remembers each key
 * a project gave up, forgets a key as soon as a project takes it, and members alone read it; nobody writes
 * it.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { useSqlAsUser } from '../support/sql-as-user.ts';

describe('private.project_former_keys', () => {
  const sqlTest = useSqlAsUser('former-keys.test');
  const { newUser, asUser } = sqlTest;
  let owner: string;
  let outsider: string;
  let workspaceId: string;

  const createdId = async (userId: string, sql: string, values: unknown[]): Promise<string> => {
    const outcome = await asUser<{ id: string }>(userId, sql, values);
    if (!('rows' in outcome) || !outcome.rows[0]) throw new Error(`refused: ${JSON.stringify(outcome)}`);
    return outcome.rows[0].id;
  };
  const newProject = (key: string) =>
    createdId(
      owner,
      `insert into public.projects (workspace_id, key, name, created_by) values ($1, $2, 'Board', $3) returning id`,
      [workspaceId, key, owner],
    );
  const rekey = async (from: string, to: string) =>
    expect(
      await asUser(owner, 'update public.projects set key = $3 where workspace_id = $1 and key = $2', [
        workspaceId,
        from,
        to,
      ]),
    ).toEqual({ rows: [] });
  const stored = async () =>
    (
      await sqlTest.db.query<{ key: string; project_id: string }>(
        'select key, project_id from private.project_former_keys where workspace_id = $1 order by key',
        [workspaceId],
      )
    ).rows;

  beforeAll(async () => {
    [owner, outsider] = [await newUser(), await newUser()];
    workspaceId = await createdId(owner, 'select id from private.create_workspace($1, $2)', ['Keys', 'keys']);
    await createdId(outsider, 'select id from private.create_workspace($1, $2)', ['Other', 'other']);
  });

  test('remembers the keys a project gave up, forgets one a project takes, and cascades on delete', async () => {
    const web = await newProject('WEB');
    await rekey('WEB', 'SITE');
    await rekey('SITE', 'HOME');
    expect(await stored()).toEqual([
      { key: 'SITE', project_id: web },
      { key: 'WEB', project_id: web },
    ]);
    await rekey('HOME', 'SITE');
    expect(await stored()).toEqual([
      { key: 'HOME', project_id: web },
      { key: 'WEB', project_id: web },
    ]);
    const taker = await newProject('WEB');
    expect(await stored()).toEqual([{ key: 'HOME', project_id: web }]);
    await rekey('WEB', 'APP');
    expect(await stored()).toEqual([
      { key: 'HOME', project_id: web },
      { key: 'WEB', project_id: taker },
    ]);
    await sqlTest.db.query('delete from public.projects where id = $1', [web]);
    expect(await stored()).toEqual([{ key: 'WEB', project_id: taker }]);
  });

  test('members read their workspace’s former keys, outsiders none, and no one writes them', async () => {
    await newProject('OLD');
    await rekey('OLD', 'NEW');
    const read = 'select key from private.project_former_keys where key = $1';
    expect(await asUser(owner, read, ['OLD'])).toEqual({ rows: [{ key: 'OLD' }] });
    expect(await asUser(outsider, read, ['OLD'])).toEqual({ rows: [] });
    const project = (await stored()).find((row) => row.key === 'OLD')?.project_id;
    for (const userId of [owner, outsider]) {
      expect(
        await asUser(
          userId,
          `insert into private.project_former_keys (workspace_id, key, project_id) values ($1, 'FAKE', $2)`,
          [workspaceId, project],
        ),
      ).toHaveProperty('refused');
      expect(await asUser(userId, 'delete from private.project_former_keys', [])).toHaveProperty('refused');
      expect(await asUser(userId, `update private.project_former_keys set key = 'FAKE'`, [])).toHaveProperty(
        'refused',
      );
    }
    expect((await stored()).map((row) => row.key)).not.toContain('FAKE');
  });
});
