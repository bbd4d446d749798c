import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { components } from '../../api-spec/schema.d.ts';
import { DEMO_ACCOUNT, DEMO_PEOPLE } from '../../local/demo-content.ts';
import { demoRowCounts } from '../support/demo-rows.ts';
import { standInApiKeys, supabaseClient, withStandInDatabase } from '../support/stand-in-auth.ts';
import { startStandIn, type StandInProcess } from '../support/stand-in-process.ts';

type Export = components['schemas']['Export'];
type WorkspaceList = components['schemas']['WorkspaceList'];

const STATUSES = ['backlog', 'todo', 'in_progress', 'in_review', 'done', 'canceled'];
const CREATED_LINE = '[db] created the demo workspace "demo"';

describe('the demo workspace of a fresh stand-in', () => {
  let standIn: StandInProcess;
  let anonKey: string;

  beforeAll(async () => {
    standIn = await startStandIn();
    anonKey = (await standInApiKeys(standIn)).anonKey;
  });

  afterAll(async () => {
    await standIn.dispose();
  });

  const api = (path: string) => `${standIn.apiUrl}/functions/v1/api/v1${path}`;

  async function signIn(email: string): Promise<string> {
    const { data, error } = await supabaseClient(standIn.apiUrl, anonKey).auth.signInWithPassword({
      email,
      password: DEMO_ACCOUNT.password,
    });
    expect(error).toBeNull();
    if (!data.session) throw new Error(`${email} got no session`);
    return data.session.access_token;
  }

  async function getJson<T>(token: string, path: string): Promise<T> {
    const response = await fetch(api(path), { headers: { Authorization: `Bearer ${token}` } });
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as T;
  }

  test('belongs to the demo account, which owns it', async () => {
    expect(standIn.output()).toContain(`${CREATED_LINE}: 2 projects,`);
    const workspaces = await getJson<WorkspaceList>(await signIn(DEMO_ACCOUNT.email), '/workspaces');
    expect(workspaces.data).toEqual([
      expect.objectContaining({ slug: 'demo', name: 'Demo Co', role: 'owner', require_mfa: false }),
    ]);
  });

  test('has two projects of tasks in every status, with labels, assignees, due dates and comments', async () => {
    const document = await getJson<Export>(await signIn(DEMO_ACCOUNT.email), '/workspaces/demo/export');

    expect(document.projects.map(({ key }) => key).sort()).toEqual(['OPS', 'WEB']);
    for (const project of document.projects) {
      const tasks = document.tasks.filter((task) => task.project_id === project.id);
      expect(tasks.length, project.key).toBeGreaterThanOrEqual(15);
      expect(tasks.length, project.key).toBeLessThanOrEqual(25);
      expect(new Set(tasks.map(({ status }) => status)), project.key).toEqual(new Set(STATUSES));
      expect(tasks.map(({ number }) => number).sort((a, b) => a - b)).toEqual(tasks.map((_, i) => i + 1));
    }
    expect(document.labels.map(({ name }) => name)).toEqual(
      expect.arrayContaining(['bug', 'feature', 'design']),
    );
    expect(document.members.map(({ display_name, role }) => ({ display_name, role }))).toEqual(
      expect.arrayContaining([
        { display_name: DEMO_ACCOUNT.displayName, role: 'owner' },
        ...Object.values(DEMO_PEOPLE).map(({ displayName, role }) => ({ display_name: displayName, role })),
      ]),
    );

    const assignees = new Set(
      document.tasks.flatMap(({ assignee_id }) => (assignee_id ? [assignee_id] : [])),
    );
    expect(assignees.size).toBeGreaterThanOrEqual(3);
    expect(document.tasks.filter(({ label_ids }) => label_ids.length > 0).length).toBeGreaterThan(20);
    const today = new Date().toISOString().slice(0, 10);
    const dueDates = document.tasks.flatMap(({ due_date }) => (due_date ? [due_date] : []));
    expect(dueDates.some((date) => date < today)).toBe(true);
    expect(dueDates.some((date) => date > today)).toBe(true);
    expect(
      document.tasks.filter(({ status }) => status === 'done').every(({ completed_at }) => completed_at),
    ).toBe(true);
    expect(document.comments.length).toBeGreaterThanOrEqual(3);
    expect(new Set(document.comments.map(({ author_id }) => author_id)).size).toBeGreaterThanOrEqual(2);
  });

  test('gives each column its own order, and the activity its real authors', async () => {
    const token = await signIn(DEMO_ACCOUNT.email);
    const document = await getJson<Export>(token, '/workspaces/demo/export');
    for (const project of document.projects) {
      for (const status of STATUSES) {
        const positions = document.tasks
          .filter((task) => task.project_id === project.id && task.status === status)
          .map(({ position }) => position);
        expect(new Set(positions).size).toBe(positions.length);
      }
    }
    const authors = await withStandInDatabase(standIn, async (db) => {
      const { rows } = await db.query<{ actor_id: string | null }>(
        `select distinct actor_id from public.events where type = 'comment.created'`,
      );
      return rows.map(({ actor_id }) => actor_id);
    });
    expect(authors).not.toContain(null);
    expect(authors.length).toBeGreaterThanOrEqual(2);
  });

  test('lets the other demo people sign in with the demo password and see the workspace', async () => {
    const workspaces = await getJson<WorkspaceList>(await signIn(DEMO_PEOPLE.maya.email), '/workspaces');
    expect(workspaces.data).toEqual([expect.objectContaining({ slug: 'demo', role: 'admin' })]);
  });

  test('is made once: a restart adds nothing', async () => {
    const before = await withStandInDatabase(standIn, demoRowCounts);
    expect(before.tasks).toBeGreaterThan(30);
    expect(await standIn.stop('SIGTERM')).toBe(0);

    standIn = await startStandIn({ dataDir: standIn.dataDir, ports: standIn.ports });

    expect(standIn.output()).not.toContain(CREATED_LINE);
    expect(await withStandInDatabase(standIn, demoRowCounts)).toEqual(before);
  });
});
