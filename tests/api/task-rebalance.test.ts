/**
 * Many moves into the same gap (the first security review, item 9): each halves the gap, so each new key is
 * longer than the last, and after about 1,190 a key passed position's 200 characters and the gap refused
 * every move (500). The column is rebalanced instead. Driven through the service, as the route calls it:
 * 1,300 requests would be slow, and the route adds nothing to placement.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { moveTask } from '../../supabase/functions/api/tasks/tasks.service.ts';
import { useTestApp } from '../support/api-app.ts';
import { projectIn, storedTasks, taskCalls, taskIn, type Project, type Task } from '../support/task-calls.ts';
import { createWorkspaceWithRoles, type WorkspaceFixture } from '../support/workspace-fixture.ts';
import { asService } from '../support/service-transaction.ts';

const MOVES = 1_300;

const api = useTestApp();

/** A new workspace and project whose To do column holds tasks with these titles, in this order. */
async function todoColumnOf(titles: string[]) {
  const workspace = await createWorkspaceWithRoles(api.db);
  const project = await projectIn(api.app, workspace);
  const made: Task[] = [];
  for (const title of titles)
    made.push(await taskIn(api.app, workspace, project.key, { title, status: 'todo' }));
  return { workspace, project, made };
}

describe('moving tasks into the same gap again and again', () => {
  let workspace: WorkspaceFixture;
  let project: Project;
  let made: Task[];

  beforeAll(async () => {
    ({ workspace, project, made } = await todoColumnOf(['first', 'x', 'y', 'last']));
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
    expect(listed.body.data.map((task) => task.title)).toEqual(['first', 'x', 'y', 'last']);
  }, 120_000);
});

// Fractional-index keys: an integer part (`a0`, one digit after `a`), then base-62 fraction digits, the
// last not `0`. Two keys that share a long prefix leave a gap whose midpoint is longer still.
const BASE_62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const digits = (min: number, max: number) =>
  fc.array(fc.constantFrom(...BASE_62), { minLength: min, maxLength: max }).map((chars) => chars.join(''));

/**
 * Two keys a < b, `a` of exactly 200 characters ending in the highest digit, `b` right above it: any key
 * between them needs a 201st character, so a move into that gap must rebalance to land.
 */
const narrowGap = fc
  .tuple(digits(100, 190), fc.integer({ min: 0, max: 60 }), digits(0, 6))
  .map(([prefix, low, tail]) => {
    const head = `a0${prefix}`;
    const a = `${head}${BASE_62[low] ?? '0'}`.padEnd(200, 'z');
    const b = `${head}${BASE_62[low + 1] ?? 'z'}${tail.replace(/0+$/, '')}`;
    return { a, b };
  });

describe('fuzzing: a move into a gap between neighbours whose keys are near the length limit', () => {
  let workspace: WorkspaceFixture;
  let project: Project;
  let made: Task[];

  beforeAll(async () => {
    ({ workspace, project, made } = await todoColumnOf(['lower', 'upper', 'mover', 'bystander']));
  });

  it('lands between them, every key stays within 200 characters, and the order holds', async () => {
    const [lower, upper, mover, bystander] = made;
    if (!lower || !upper || !mover || !bystander) throw new Error('setup failed');
    await fc.assert(
      fc.asyncProperty(narrowGap, async ({ a, b }) => {
        // Hostile neighbours, as a long history of moves would leave them: written as the table owner.
        await asService(api.db, async (sql) => {
          // Out of the way first, on valid keys (`b01`…), so that no write below meets a key still held.
          await sql.query(
            `update public.tasks set position = 'b' || lpad(number::text, 2, '0') where project_id = $1`,
            [project.id],
          );
          await sql.query('update public.tasks set position = $2 where id = $1', [lower.id, a]);
          await sql.query('update public.tasks set position = $2 where id = $1', [upper.id, b]);
          await sql.query(`update public.tasks set position = 'a0' where id = $1`, [bystander.id]);
          await sql.query(`update public.tasks set position = 'a1' where id = $1`, [mover.id]);
        });
        const moved = await taskCalls(api.app).move(workspace.member.accessToken, mover.id, {
          status: 'todo',
          after_id: lower.id,
          before_id: upper.id,
        });
        expect(moved.status, moved.text).toBe(200);
        const stored = await storedTasks(api.db, project.id);
        expect(Math.max(...stored.map((task) => task.position.length))).toBeLessThanOrEqual(200);
        const order = [...stored]
          .sort((x, y) => (x.position < y.position ? -1 : 1))
          .map((task) => task.title);
        expect(order).toEqual(['bystander', 'lower', 'mover', 'upper']);
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});
