/**
 * supabase/seed.sql (docs/decisions/0019) where the Supabase CLI runs it: after the migrations, pushed by
 * the pinned CLI with `--include-seed` as a `postgres` that is not a superuser, on a database set up as
 * hosted Supabase sets one up. The demo board of local/demo-content.ts is there, made by its people, and
 * they sign in with the demo password through the stand-in's Auth.
 */
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  DEMO_ACCOUNT,
  DEMO_LABELS,
  DEMO_PEOPLE,
  DEMO_PROJECTS,
  DEMO_WORKSPACE,
  type DemoPersonKey,
} from '../../local/demo-content.ts';
import { SEED_PATH } from '../../local/demo-seed.ts';
import { demoRowCounts } from '../support/demo-rows.ts';
import { supabaseClient } from '../support/stand-in-auth.ts';
import { pushMigrations } from './support/db-push.ts';
import { startHostedDatabase, type HostedDatabase } from './support/hosted-database.ts';
import { startHostedGateway, type HostedGateway } from './support/hosted-gateway.ts';

const STATUS_ORDER = ['backlog', 'todo', 'in_progress', 'in_review', 'done', 'canceled'];

let database: HostedDatabase;
let gateway: HostedGateway;
let pushOutput: string;

async function withClient<T>(url: string, work: (db: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const superuserQuery = <Row extends pg.QueryResultRow>(text: string) =>
  withClient(database.superuserUrl, async (db) => (await db.query<Row>(text)).rows);

beforeAll(async () => {
  database = await startHostedDatabase();
  pushOutput = await pushMigrations(database, { includeSeed: true });
  gateway = await startHostedGateway(database.authAdminUrl, 'https://app.tasklane.test');
});

afterAll(async () => {
  await gateway?.stop();
  await database?.dispose();
});

describe('supabase/seed.sql, pushed with --include-seed to a hosted-shaped database', () => {
  test('is recorded by the CLI as seeded', async () => {
    expect(await superuserQuery('select path from supabase_migrations.seed_files'), pushOutput).toEqual([
      { path: SEED_PATH },
    ]);
  });

  test('makes the demo workspace with its people in their roles, and the labels', async () => {
    const members = await superuserQuery(
      `select u.email, m.role, p.display_name from public.memberships m
       join public.workspaces w on w.id = m.workspace_id join auth.users u on u.id = m.user_id
       join public.profiles p on p.user_id = u.id
       where w.slug = '${DEMO_WORKSPACE.slug}' and w.name = '${DEMO_WORKSPACE.name}' order by u.email`,
    );
    expect(members).toEqual(
      [
        { email: DEMO_ACCOUNT.email, role: 'owner', display_name: DEMO_ACCOUNT.displayName },
        ...Object.values(DEMO_PEOPLE).map(({ email, role, displayName }) => ({
          email,
          role,
          display_name: displayName,
        })),
      ].sort((a, b) => a.email.localeCompare(b.email)),
    );
    const labels = await superuserQuery<{ name: string; color: string }>(
      'select name, color from public.labels order by name',
    );
    expect(Object.fromEntries(labels.map(({ name, color }) => [name, color]))).toEqual(DEMO_LABELS);
  });

  test('makes every task of the content, numbered and placed in the order listed, with who and when', async () => {
    const tasks = await superuserQuery<{ key: string; number: number; status: string; rest: unknown }>(
      `select p.key, t.number, t.status, jsonb_build_object(
         'title', t.title, 'description', t.description, 'priority', t.priority,
         'assignee', assignee.email, 'by', creator.email, 'due_in_days', t.due_date - current_date,
         'labels', (select coalesce(jsonb_agg(l.name order by n), '[]') from unnest(t.label_ids)
                      with ordinality as ids (id, n) join public.labels l on l.id = ids.id),
         'comments', (select coalesce(jsonb_agg(jsonb_build_object('by', author.email, 'body', c.body)
                        order by c.body collate "C"), '[]')
                      from public.comments c join auth.users author on author.id = c.author_id
                      where c.task_id = t.id),
         'completed', t.completed_at is not null) as rest
       from public.tasks t join public.projects p on p.id = t.project_id
       left join auth.users assignee on assignee.id = t.assignee_id
       left join auth.users creator on creator.id = t.created_by
       order by p.key, t.status, t.position`,
    );
    const emailOf = (key: DemoPersonKey = 'demo') =>
      key === 'demo' ? DEMO_ACCOUNT.email : DEMO_PEOPLE[key].email;
    const expected = DEMO_PROJECTS.flatMap((project) =>
      project.tasks.map((task, index) => ({
        key: project.key,
        number: index + 1,
        status: task.status,
        rest: {
          title: task.title,
          description: task.description ?? '',
          priority: task.priority,
          assignee: task.assignee ? emailOf(task.assignee) : null,
          by: emailOf(task.by),
          due_in_days: task.dueInDays ?? null,
          labels: task.labels ?? [],
          // Made in one transaction, a task's comments share their created_at: compared in any order.
          comments: (task.comments ?? [])
            .map(({ by, body }) => ({ by: emailOf(by), body }))
            .sort((a, b) => (a.body < b.body ? -1 : 1)),
          completed: task.status === 'done',
        },
      })),
    );
    // In each project's columns, the board order is the order the content lists the tasks in.
    const boardOrder = [...expected].sort(
      (a, b) =>
        a.key.localeCompare(b.key) ||
        a.status.localeCompare(b.status) ||
        expected.indexOf(a) - expected.indexOf(b),
    );
    expect(tasks).toEqual(boardOrder);
    expect(new Set(tasks.map(({ status }) => status))).toEqual(new Set(STATUS_ORDER));
  });

  test('records the activity with its real authors', async () => {
    const actors = await superuserQuery<{ type: string; actors: number }>(
      `select type, count(distinct actor_id)::int as actors from public.events
       where type in ('task.created', 'comment.created') and actor_id is not null group by type order by type`,
    );
    expect(actors).toEqual([
      { type: 'comment.created', actors: 4 },
      { type: 'task.created', actors: 4 },
    ]);
    const anonymous = await superuserQuery('select type from public.events where actor_id is null');
    expect(anonymous).toEqual([]);
  });

  test('lets the demo account and its colleagues sign in with the demo password, as GoTrue would', async () => {
    const auth = supabaseClient(gateway.url, gateway.keys.publishableKey).auth;
    for (const email of [DEMO_ACCOUNT.email, ...Object.values(DEMO_PEOPLE).map((person) => person.email)]) {
      const { data, error } = await auth.signInWithPassword({ email, password: DEMO_ACCOUNT.password });
      expect(error, email).toBeNull();
      expect(data.user, email).toMatchObject({
        email,
        email_confirmed_at: expect.any(String),
        identities: [{ provider: 'email', identity_data: { email, email_verified: true } }],
      });
    }
    const hashes = await superuserQuery<{ encrypted_password: string }>(
      'select encrypted_password from auth.users',
    );
    for (const { encrypted_password } of hashes) expect(encrypted_password).toMatch(/^\$2[aby]\$10\$/);
  });

  test('changes nothing when it runs again', async () => {
    const counts = () => withClient(database.superuserUrl, demoRowCounts);
    const before = await counts();
    await withClient(database.postgresUrl(), async (db) => db.query(await readFile(SEED_PATH, 'utf8')));
    expect(await counts()).toEqual(before);
  });
});
