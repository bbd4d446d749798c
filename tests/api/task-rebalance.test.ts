/**
 * Many moves into the same gap (issue 11, item 9): each halves the gap, so each new key is longer than
 * the last, and after about 1,190 a key passed position's 200 characters and the gap refused every move
 * (500). The column is rebalanced instead. Driven through the service, as the route calls it: 1,300
 * requests would be slow, and the route adds nothing to placement.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { moveTask } from '../../supabase/functions/api/tasks/tasks.service.ts';
import { useTestApp } from '../support/api-app.ts';
import {
  projectIn,
  storedTasks,
  taskCalls,
  taskIn,
  type Project,
  type Task,
  type TaskList,
} from '../support/task-calls.ts';
import { createWorkspaceWithRoles, type WorkspaceFixture } from '../support/workspace-fixture.ts';

const MOVES = 1_300;

const api = useTestApp();

describe('moving tasks into the same gap again and again', () => {
  let workspace: WorkspaceFixture;
  let project: Project;
  let made: Task[];

  beforeAll(async () => {
    workspace = await createWorkspaceWithRoles(api.db);
    project = await projectIn(api.app, workspace);
    made = [];
    for (const title of ['first', 'x', 'y', 'last']) {
      made.push(await taskIn(api.app, workspace, project.key, { title, status: 'todo' }));
    }
  });

  it(`succeeds ${MOVES} times, and the column keeps its order`, async () => {
    const [first, x, y, last] = made;
    if (!first || !x || !y || !last) throw new Error('setup failed');
    const principal = workspace.member.principal;
    // x and y take turns landing right after `first`: each lands between `first` and the other.
    for (let n = 0; n < MOVES; n += 1) {
      const mover = n % 2 === 0 ? y : x;
      await moveTask(api.db, principal, mover.id, { status: 'todo', after_id: first.id }, null);
    }

    const stored = await storedTasks(api.db, project.id);
    expect(Math.max(...stored.map((task) => task.position.length))).toBeLessThanOrEqual(200);
    const listed = await taskCalls(api.app).list(
      workspace.viewer.accessToken,
      workspace,
      project.key,
      '?limit=200',
    );
    expect(listed.status, listed.text).toBe(200);
    // The last mover (x, as MOVES is even) went right after `first`, before y.
    expect((listed.body as TaskList).data.map((task) => task.title)).toEqual(['first', 'x', 'y', 'last']);
  }, 120_000);
});
