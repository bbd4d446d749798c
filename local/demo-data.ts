/**
 * The demo workspace, so that `npm start` shows a living board: when the demo account belongs to no
 * workspace (on the first start, and again if it ever leaves them all), it gets `demo` with the people,
 * labels, projects, tasks and comments of local/demo-content.ts. Otherwise nothing happens, so a restart
 * adds nothing. All in one transaction: a failure leaves no half-made workspace. Local use only.
 */
import { generateNKeysBetween } from 'fractional-indexing';
import { DEMO_ACCOUNT } from './auth/demo-account.ts';
import { lockUserByEmail } from './auth/email-tokens.queries.ts';
import { registerEmailUser } from './auth/user-registration.ts';
import type { TaskStatus } from '../supabase/functions/_shared/api-types.ts';
import type { Database, Db } from './db.ts';
import {
  DEMO_LABELS,
  DEMO_PEOPLE,
  DEMO_PROJECTS,
  DEMO_WORKSPACE,
  type DemoLabel,
  type DemoPersonKey,
  type DemoProject,
  type DemoTask,
} from './demo-content.ts';
import {
  actAs,
  insertComment,
  insertLabel,
  insertMembership,
  insertProject,
  insertTask,
  insertWorkspace,
  isInAnyWorkspace,
  isSlugTaken,
} from './demo-data.queries.ts';

/** What was made, for the start-up log. */
export interface DemoDataSummary {
  slug: string;
  projects: number;
  tasks: number;
  comments: number;
}

export function describeDemoData({ slug, projects, tasks, comments }: DemoDataSummary): string {
  return `created the demo workspace "${slug}": ${projects} projects, ${tasks} tasks, ${comments} comments`;
}

type People = Record<DemoPersonKey, string>;
type Labels = Record<DemoLabel, string>;

/** Makes the demo workspace unless the demo account is in a workspace already; what it made, or null. */
export function ensureDemoData(database: Database): Promise<DemoDataSummary | null> {
  return database.transaction(async (db) => {
    // Locks the demo account's row, so two starts at once cannot both make the workspace.
    const demo = await lockUserByEmail(db, DEMO_ACCOUNT.email);
    if (!demo || (await isInAnyWorkspace(db, demo.id)) || (await isSlugTaken(db, DEMO_WORKSPACE.slug))) {
      return null;
    }
    const people: People = { demo: demo.id, ...(await ensureDemoPeople(db)) };
    await actAs(db, people.demo);
    const workspaceId = await insertWorkspace(db, DEMO_WORKSPACE.slug, DEMO_WORKSPACE.name, people.demo);
    await insertMembership(db, workspaceId, people.demo, 'owner');
    for (const [key, person] of Object.entries(DEMO_PEOPLE)) {
      await insertMembership(db, workspaceId, people[key as DemoPersonKey], person.role);
    }
    const labels = await makeLabels(db, workspaceId, people.demo);
    const summary: DemoDataSummary = { slug: DEMO_WORKSPACE.slug, projects: 0, tasks: 0, comments: 0 };
    for (const project of DEMO_PROJECTS) {
      summary.comments += await makeProject(db, workspaceId, project, people, labels);
      summary.projects += 1;
      summary.tasks += project.tasks.length;
    }
    return summary;
  });
}

/** The demo people's user ids, signed up like the demo account unless they exist already. */
async function ensureDemoPeople(db: Db): Promise<Omit<People, 'demo'>> {
  const ids: Partial<Omit<People, 'demo'>> = {};
  for (const [key, person] of Object.entries(DEMO_PEOPLE)) {
    const existing = await lockUserByEmail(db, person.email);
    const user =
      existing ??
      (await registerEmailUser(db, {
        email: person.email,
        password: DEMO_ACCOUNT.password,
        userMetadata: { display_name: person.displayName },
        emailConfirmed: true,
      }));
    ids[key as keyof typeof DEMO_PEOPLE] = user.id;
  }
  return ids as Omit<People, 'demo'>;
}

async function makeLabels(db: Db, workspaceId: string, createdBy: string): Promise<Labels> {
  const ids: Partial<Labels> = {};
  for (const [name, color] of Object.entries(DEMO_LABELS)) {
    ids[name as DemoLabel] = await insertLabel(db, workspaceId, { name, color, createdBy });
  }
  return ids as Labels;
}

/** The project, its tasks in board order and their comments; how many comments it made. */
async function makeProject(
  db: Db,
  workspaceId: string,
  project: DemoProject,
  people: People,
  labels: Labels,
): Promise<number> {
  await actAs(db, people.demo);
  const projectId = await insertProject(db, workspaceId, { ...project, createdBy: people.demo });
  const positions = columnPositions(project.tasks);
  let comments = 0;
  for (const task of project.tasks) {
    const createdBy = people[task.by ?? 'demo'];
    await actAs(db, createdBy);
    const taskId = await insertTask(db, projectId, {
      title: task.title,
      description: task.description ?? '',
      status: task.status,
      priority: task.priority,
      assigneeId: task.assignee ? people[task.assignee] : null,
      labelIds: (task.labels ?? []).map((label) => labels[label]),
      dueInDays: task.dueInDays ?? null,
      position: nextPosition(positions, task.status),
      createdBy,
    });
    for (const comment of task.comments ?? []) {
      await actAs(db, people[comment.by]);
      await insertComment(db, taskId, people[comment.by], comment.body);
      comments += 1;
    }
  }
  return comments;
}

/** For each status, fractional-index positions for its tasks, in the order they are listed. */
function columnPositions(tasks: readonly DemoTask[]): Map<TaskStatus, string[]> {
  const counts = new Map<TaskStatus, number>();
  for (const { status } of tasks) counts.set(status, (counts.get(status) ?? 0) + 1);
  return new Map([...counts].map(([status, count]) => [status, generateNKeysBetween(null, null, count)]));
}

function nextPosition(positions: Map<TaskStatus, string[]>, status: TaskStatus): string {
  const position = positions.get(status)?.shift();
  if (position === undefined) throw new Error(`no position left for a ${status} task`);
  return position;
}
