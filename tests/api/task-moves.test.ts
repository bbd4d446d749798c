/**
 * POST /v1/tasks/{id}/move: board order by fractional positions. A move writes one row, lands exactly
 * between the neighbours it names (or at the end), keeps the column's order total under concurrent
 * drags, and lets If-Match pick one winner among drags of the same task.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectProblem } from '../support/api-request.ts';
import { ISO_TIMESTAMP } from '../support/resource-calls.ts';
import {
  archive,
  eventsOfTask,
  projectIn,
  storedTask,
  storedTasks,
  taskIn,
  type Project,
  type Task,
  type MoveTask,
} from '../support/task-calls.ts';
import { aal2AccessTokenOf } from '../support/test-users.ts';
import { createApiTokenFor, createWorkspaceWithRoles } from '../support/workspace-fixture.ts';
import { useTaskTestApp } from '../support/task-fixture.ts';

const { api, tasks, acme, globex } = useTaskTestApp();

/** A new project with tasks of these titles, in this order, in column `status`. */
async function columnOf(
  titles: readonly string[],
  status: Task['status'] = 'todo',
): Promise<[Project, Task[]]> {
  const project = await projectIn(api.app, acme);
  const made: Task[] = [];
  for (const title of titles) made.push(await taskIn(api.app, acme, project.key, { title, status }));
  return [project, made];
}

/** The board as a list shows it: each column's titles, top to bottom. */
async function boardOf(project: Project): Promise<Record<string, string[]>> {
  const response = await tasks().list(acme.viewer.accessToken, acme, project.key, '?limit=200');
  const board: Record<string, string[]> = {};
  for (const task of response.body.data) (board[task.status] ??= []).push(task.title);
  return board;
}

const move = (task: Task, body: MoveTask, headers?: Record<string, string>) =>
  tasks().move(acme.member.accessToken, task.id, body, headers);

function titled(made: readonly Task[], title: string): Task {
  const task = made.find((candidate) => candidate.title === title);
  if (!task) throw new Error(`no task ${title}`);
  return task;
}

describe('POST /api/v1/tasks/{id}/move', () => {
  it('moves a task to the end of another column, writing its row alone, with a task.moved event', async () => {
    const [project, made] = await columnOf(['a', 'b', 'c']);
    const done = await taskIn(api.app, acme, project.key, { title: 'd', status: 'done' });
    const b = titled(made, 'b');
    const before = await storedTasks(api.db, project.id);

    const response = await move(b, { status: 'done' });

    expect(response.status).toBe(200);
    const moved = response.body;
    expect(moved).toEqual({
      ...b,
      status: 'done',
      position: expect.any(String),
      completed_at: expect.stringMatching(ISO_TIMESTAMP),
      version: 2,
      updated_at: expect.stringMatching(ISO_TIMESTAMP),
    });
    expect(moved.position > done.position).toBe(true);
    expect(response.headers.get('ETag')).toBe('"2"');
    expect(await boardOf(project)).toEqual({ todo: ['a', 'c'], done: ['d', 'b'] });
    const after = await storedTasks(api.db, project.id);
    expect(after.filter((task) => task.id !== b.id)).toEqual(before.filter((task) => task.id !== b.id));
    const [, event] = await eventsOfTask(api.db, b.id);
    expect(event).toMatchObject({
      type: 'task.moved',
      data: moved,
      // Its position changed too, unless the end of `done` happens to have the key it had in `todo`.
      previous_attributes:
        moved.position === b.position
          ? { status: 'todo', completed_at: null }
          : { status: 'todo', position: b.position, completed_at: null },
    });
  });

  it('clears completed_at when a task leaves done', async () => {
    const [, [task]] = await columnOf(['finished'], 'done');
    if (!task) throw new Error('no task');
    expect(task.completed_at).not.toBeNull();
    expect((await move(task, { status: 'in_review' })).body.completed_at).toBeNull();
  });

  it('places a task right after after_id, right before before_id, or between both', async () => {
    const [project, made] = await columnOf(['a', 'b', 'c', 'd']);
    const x = await taskIn(api.app, acme, project.key, { title: 'x', status: 'backlog' });
    const y = await taskIn(api.app, acme, project.key, { title: 'y', status: 'backlog' });

    expect((await move(x, { status: 'todo', after_id: titled(made, 'a').id })).status).toBe(200);
    expect(await boardOf(project)).toEqual({ backlog: ['y'], todo: ['a', 'x', 'b', 'c', 'd'] });

    expect((await move(y, { status: 'todo', before_id: titled(made, 'a').id })).status).toBe(200);
    expect(await boardOf(project)).toEqual({ todo: ['y', 'a', 'x', 'b', 'c', 'd'] });

    const d = titled(made, 'd');
    const between: MoveTask = {
      status: 'todo',
      after_id: titled(made, 'b').id,
      before_id: titled(made, 'c').id,
    };
    expect((await move(d, between)).status).toBe(200);
    expect(await boardOf(project)).toEqual({ todo: ['y', 'a', 'x', 'b', 'd', 'c'] });

    // Neighbours that are no longer next to each other: right after after_id.
    const apart: MoveTask = {
      status: 'todo',
      after_id: titled(made, 'a').id,
      before_id: titled(made, 'c').id,
    };
    expect((await move(y, apart)).status).toBe(200);
    expect(await boardOf(project)).toEqual({ todo: ['a', 'y', 'x', 'b', 'd', 'c'] });

    // null neighbours are none: the end of the column.
    expect((await move(y, { status: 'todo', after_id: null, before_id: null })).status).toBe(200);
    expect(await boardOf(project)).toEqual({ todo: ['a', 'x', 'b', 'd', 'c', 'y'] });
  });

  it('answers a task already in place as it is, writing nothing', async () => {
    const [project, made] = await columnOf(['a', 'b', 'c']);
    const b = titled(made, 'b');
    const inPlace: MoveTask[] = [
      { status: 'todo', after_id: titled(made, 'a').id },
      { status: 'todo', before_id: titled(made, 'c').id },
      { status: 'todo', after_id: titled(made, 'a').id, before_id: titled(made, 'c').id },
    ];
    for (const body of inPlace) {
      const response = await move(b, body, { 'If-Match': '"1"' });
      expect(response.status).toBe(200);
      expect(response.body).toEqual(b);
    }
    const last = titled(made, 'c');
    expect((await move(last, { status: 'todo' })).body).toEqual(last);
    expect(
      expectProblem(
        await move(b, { status: 'todo', after_id: titled(made, 'a').id }, { 'If-Match': '"4"' }),
        412,
        'precondition_failed',
      ).current_version,
    ).toBe(1);
    expect((await storedTasks(api.db, project.id)).map((task) => task.version)).toEqual([1, 1, 1]);
    expect((await eventsOfTask(api.db, b.id)).map((event) => event.type)).toEqual(['task.created']);
  });

  it('refuses neighbours that are not other tasks of the target column with 422 naming the field', async () => {
    const [project, made] = await columnOf(['a', 'b']);
    const doing = await taskIn(api.app, acme, project.key, { title: 'doing', status: 'in_progress' });
    const [, [elsewhere]] = await columnOf(['elsewhere']);
    const foreignProject = await projectIn(api.app, globex);
    const foreign = await taskIn(api.app, globex, foreignProject.key);
    const a = titled(made, 'a');
    const b = titled(made, 'b');
    const cases: [Record<string, unknown>, string][] = [
      [{ status: 'todo', after_id: doing.id }, 'body.after_id'],
      [{ status: 'in_progress', before_id: b.id }, 'body.before_id'],
      [{ status: 'todo', after_id: elsewhere?.id }, 'body.after_id'],
      [{ status: 'todo', before_id: foreign.id }, 'body.before_id'],
      [{ status: 'todo', after_id: randomUUID() }, 'body.after_id'],
      [{ status: 'todo', after_id: a.id }, 'body.after_id'],
      [{ status: 'todo', after_id: b.id, before_id: a.id }, 'body.before_id'],
      [{ status: 'todo', after_id: 'a' }, 'body.after_id'],
      [{ status: 'doing' }, 'body.status'],
      [{ after_id: b.id }, 'body.status'],
      [{ status: 'todo', position: 'a0' }, 'body.position'],
    ];
    const before = await storedTasks(api.db, project.id);
    for (const [body, path] of cases) {
      const problem = expectProblem(
        await tasks().raw.move(acme.member.accessToken, a.id, body),
        422,
        'validation_failed',
      );
      expect(problem.errors?.map((error) => error.path)).toEqual([path]);
    }
    expect(await storedTasks(api.db, project.id)).toEqual(before);
  });

  it('lands concurrent moves into the same gap one after the other, every one of them', async () => {
    const [project, made] = await columnOf(['top', 'bottom']);
    const movers: Task[] = [];
    for (let index = 0; index < 8; index += 1) {
      movers.push(await taskIn(api.app, acme, project.key, { title: `m${index}`, status: 'backlog' }));
    }
    const gap: MoveTask = {
      status: 'todo',
      after_id: titled(made, 'top').id,
      before_id: titled(made, 'bottom').id,
    };

    const responses = await Promise.all(movers.map((task) => move(task, gap)));

    expect(responses.map((response) => response.status)).toEqual(Array(8).fill(200));
    const column = (await boardOf(project)).todo ?? [];
    expect(column).toHaveLength(10);
    expect(column[0]).toBe('top');
    expect(column[9]).toBe('bottom');
    expect(new Set(column.slice(1, 9))).toEqual(new Set(movers.map((task) => task.title)));
    const positions = (await storedTasks(api.db, project.id)).map((task) => task.position);
    expect(new Set(positions).size).toBe(10);
  });

  it('lets exactly one of concurrent drags of the same task win with If-Match; the others get 412', async () => {
    const [project, made] = await columnOf(['a', 'b', 'c']);
    const a = titled(made, 'a');
    const targets: Task['status'][] = ['in_progress', 'in_review', 'done', 'backlog', 'canceled'];

    const responses = await Promise.all(targets.map((status) => move(a, { status }, { 'If-Match': '"1"' })));

    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([200, 412, 412, 412, 412]);
    for (const lost of responses.filter((response) => response.status === 412)) {
      expect(expectProblem(lost, 412, 'precondition_failed').current_version).toBe(2);
    }
    const winner = responses.find((response) => response.status === 200)?.body;
    if (!winner) throw new Error('no move won');
    expect(await storedTask(api.db, a.id)).toMatchObject({ status: winner.status, version: 2 });
    expect((await eventsOfTask(api.db, a.id)).map((event) => event.type)).toEqual([
      'task.created',
      'task.moved',
    ]);
    expect((await boardOf(project))[winner.status]).toEqual(['a']);
  });

  it('refuses a stale If-Match with 412 and the current version', async () => {
    const [, [task]] = await columnOf(['a']);
    if (!task) throw new Error('no task');
    const problem = expectProblem(
      await move(task, { status: 'done' }, { 'If-Match': '"3"' }),
      412,
      'precondition_failed',
    );
    expect(problem.current_version).toBe(1);
    expect(await storedTask(api.db, task.id)).toMatchObject({ status: 'todo', version: 1 });
  });

  it('refuses viewers (403), read tokens (403), outsiders (404) and archived projects (409)', async () => {
    const [project, [task]] = await columnOf(['a']);
    if (!task) throw new Error('no task');
    const body: MoveTask = { status: 'done' };
    expectProblem(await tasks().move(acme.viewer.accessToken, task.id, body), 403, 'forbidden');
    const readToken = await createApiTokenFor(api.app, acme.member, 'read');
    expectProblem(await tasks().move(readToken, task.id, body), 403, 'insufficient_scope');
    expectProblem(await tasks().move(acme.outsider.accessToken, task.id, body), 404, 'not_found');
    expectProblem(await tasks().move(globex.owner.accessToken, task.id, body), 404, 'not_found');
    expectProblem(await tasks().move(acme.owner.accessToken, randomUUID(), body), 404, 'not_found');
    expectProblem(await tasks().move(acme.owner.accessToken, 'nope', body), 404, 'not_found');
    await archive(api.app, acme, project.key);
    expectProblem(await tasks().move(acme.owner.accessToken, task.id, body), 409, 'project_archived');
    expect(await storedTask(api.db, task.id)).toMatchObject({ status: 'todo', version: 1 });
    const writeToken = await createApiTokenFor(api.app, acme.member, 'write');
    const [, [other]] = await columnOf(['b']);
    expect((await tasks().move(writeToken, other?.id ?? '', body)).status).toBe(200);
  });

  it('answers aal1 sessions 403 mfa_required where MFA is required', async () => {
    const strict = await createWorkspaceWithRoles(api.db, { requireMfa: true });
    const project = await projectIn(api.app, strict, await aal2AccessTokenOf(strict.admin));
    const member = await aal2AccessTokenOf(strict.member);
    const task = (await tasks().create(member, strict, project.key, { title: 'MFA' })).body;
    expectProblem(
      await tasks().move(strict.member.accessToken, task.id, { status: 'done' }),
      403,
      'mfa_required',
    );
    expect(await storedTask(api.db, task.id)).toMatchObject({ status: task.status, version: 1 });
    expect((await tasks().move(member, task.id, { status: 'done' })).status).toBe(200);
  });

  it('replays a retried move with the same Idempotency-Key instead of moving twice', async () => {
    const [, made] = await columnOf(['a', 'b']);
    const a = titled(made, 'a');
    const headers = { 'Idempotency-Key': randomUUID() };
    const first = await move(a, { status: 'todo', after_id: titled(made, 'b').id }, headers);
    const again = await move(a, { status: 'todo', after_id: titled(made, 'b').id }, headers);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await storedTask(api.db, a.id)).toMatchObject({ version: 2 });
  });
});
