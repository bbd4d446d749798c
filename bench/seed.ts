/**
 * The bench's data, written as the service over SQL: a workspace of `members` people (signed up as the
 * stand-in's Auth signs people up, so they can sign in), a big project and a small one, each with its
 * tasks spread evenly over five columns in board order.
 */
import { generateNKeysBetween } from 'fractional-indexing';
import type { Database } from '../local/db.ts';
import { registerEmailUser } from '../local/auth/user-registration.ts';
import {
  actAs,
  insertMembership,
  insertProject,
  insertTasks,
  insertWorkspace,
  selectColumnTaskIds,
  vacuumAnalyze,
  type SeededTask,
} from './seed.queries.ts';

export interface SeedSizes {
  members: number;
  bigProjectTasks: number;
  smallProjectTasks: number;
}

export interface SeededProject {
  key: string;
  id: string;
  tasks: number;
}

export interface SeededWorkspace {
  slug: string;
  big: SeededProject;
  small: SeededProject;
  /** A member (neither owner nor admin) who signs in for the measurements. */
  member: { email: string; password: string };
  /** Another person of the workspace (its admin): row l watches the member's moves on their board. */
  colleague: { email: string; password: string };
  /** Two tasks of the big project's `backlog`: one the API moves, one the raw SQL moves. */
  movable: { viaApi: string; viaSql: string };
}

export const SEEDED_STATUSES = ['backlog', 'todo', 'in_progress', 'in_review', 'done'] as const;
const PRIORITIES = ['none', 'low', 'medium', 'high', 'urgent'] as const;
/** The first person owns the workspace, the second administers it; everyone else is a member. */
const ROLES_IN_ORDER = ['owner', 'admin'];
const PASSWORD = 'bench-password';
const BATCH = 1_000;
const DESCRIPTION =
  'Measured by npm run bench: a description of a realistic length, so rows are the size a board has.';

export async function seedWorkspace(database: Database, sizes: SeedSizes): Promise<SeededWorkspace> {
  const people = await signUpPeople(database, sizes.members);
  const owner = people[0] as string;
  const { big, small } = await database.transaction(async (db) => {
    await actAs(db, owner);
    const workspaceId = await insertWorkspace(db, 'bench', 'Bench', owner);
    for (const [index, userId] of people.entries()) {
      await insertMembership(db, workspaceId, userId, ROLES_IN_ORDER[index] ?? 'member');
    }
    const project = (key: string, name: string) =>
      insertProject(db, workspaceId, { key, name, description: '', createdBy: owner });
    return { big: await project('BIG', 'The big board'), small: await project('SMALL', 'The small board') };
  });
  await fillProject(database, big, sizes.bigProjectTasks, people);
  await fillProject(database, small, sizes.smallProjectTasks, people);
  await vacuumAnalyze(database.statements);
  const [viaApi, viaSql] = await selectColumnTaskIds(database.statements, big, 'backlog', 2);
  if (!viaApi || !viaSql) throw new Error('the big project needs at least two backlog tasks');
  return {
    slug: 'bench',
    big: { key: 'BIG', id: big, tasks: sizes.bigProjectTasks },
    small: { key: 'SMALL', id: small, tasks: sizes.smallProjectTasks },
    member: { email: emailOf(2), password: PASSWORD },
    colleague: { email: emailOf(1), password: PASSWORD },
    movable: { viaApi, viaSql },
  };
}

async function signUpPeople(database: Database, count: number): Promise<string[]> {
  if (count < 3) throw new Error('the bench needs an owner, an admin and a member');
  return database.transaction(async (db) => {
    const ids: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const user = await registerEmailUser(db, {
        email: emailOf(index),
        password: PASSWORD,
        userMetadata: { display_name: `Bench Person ${index + 1}` },
        emailConfirmed: true,
      });
      ids.push(user.id);
    }
    return ids;
  });
}

const emailOf = (index: number) => `bench-${index + 1}@tasklane.local`;

/** `count` tasks dealt round the columns, so numbers interleave as on a real board; in batches. */
async function fillProject(
  database: Database,
  projectId: string,
  count: number,
  people: string[],
): Promise<void> {
  const perColumn = Math.ceil(count / SEEDED_STATUSES.length);
  const positions = SEEDED_STATUSES.map(() => generateNKeysBetween(null, null, perColumn));
  const tasks = Array.from({ length: count }, (_, index): SeededTask => {
    const column = index % SEEDED_STATUSES.length;
    const person = people[index % people.length] as string;
    return {
      title: `Task ${index + 1} of the board`,
      description: DESCRIPTION,
      status: SEEDED_STATUSES[column] as string,
      priority: PRIORITIES[index % PRIORITIES.length] as string,
      assigneeId: index % 4 === 0 ? null : person,
      position: positions[column]?.[Math.floor(index / SEEDED_STATUSES.length)] as string,
      createdBy: person,
    };
  });
  for (let start = 0; start < tasks.length; start += BATCH) {
    await database.transaction(async (db) => {
      await actAs(db, people[0] as string);
      await insertTasks(db, projectId, tasks.slice(start, start + BATCH));
    });
  }
}
