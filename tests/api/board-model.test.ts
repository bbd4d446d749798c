/**
 * A model-based test of the board (fast-check `commands`): random sequences of creates, moves (to any
 * slot of any column), stale and fresh edits and deletes run against the API and against an in-memory
 * model of the columns. After every sequence the board read back through the API is the model's, in
 * the same order, with strictly increasing positions in each column; a stale If-Match was refused every
 * time (no update is lost silently); and each task's event log is exactly what the model expects.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api-app.ts';
import { expectProblem } from '../support/api-request.ts';
import { taskCalls, type MoveTask, type Task } from '../support/task-calls.ts';
import { createWorkspaceWithRoles, type WorkspaceFixture } from '../support/workspace-fixture.ts';
import { asService } from '../support/service-transaction.ts';

const api = useTestApp();
const STATUSES = ['todo', 'in_progress', 'done'] as const;
type Status = (typeof STATUSES)[number];

interface BoardModel {
  columns: Record<Status, string[]>;
  versions: Map<string, number>;
  /** Event types each task should have logged, oldest first. */
  events: Map<string, string[]>;
  /** Every task ever made, deleted ones included. */
  made: string[];
}

interface Board {
  fixture: WorkspaceFixture;
  key: string;
  bearer: string;
}

const emptyModel = (): BoardModel => ({
  columns: { todo: [], in_progress: [], done: [] },
  versions: new Map(),
  events: new Map(),
  made: [],
});

const liveTasks = (model: BoardModel) => STATUSES.flatMap((status) => model.columns[status]);
const columnOf = (model: BoardModel, id: string) =>
  STATUSES.find((s) => model.columns[s].includes(id)) as Status;
const pick = (model: BoardModel, n: number) => {
  const live = liveTasks(model);
  return live[n % live.length] as string;
};
const taskApi = () => taskCalls(api.app);
const logEvent = (model: BoardModel, id: string, type: string) =>
  model.events.set(id, [...(model.events.get(id) ?? []), type]);

class Create implements fc.AsyncCommand<BoardModel, Board> {
  constructor(readonly status: Status) {}
  check = () => true;
  async run(model: BoardModel, board: Board): Promise<void> {
    const response = await taskApi().create(board.bearer, board.fixture, board.key, {
      title: `Task ${model.made.length + 1}`,
      status: this.status,
    });
    expect(response.status).toBe(201);
    const created = response.body;
    model.columns[this.status].push(created.id);
    model.versions.set(created.id, created.version);
    model.made.push(created.id);
    logEvent(model, created.id, 'task.created');
  }
  toString = () => `Create(${this.status})`;
}

class Move implements fc.AsyncCommand<BoardModel, Board> {
  constructor(
    readonly which: number,
    readonly status: Status,
    readonly slot: number,
    readonly naming: 'after' | 'before' | 'both',
  ) {}
  check = (model: Readonly<BoardModel>) => liveTasks(model as BoardModel).length > 0;
  async run(model: BoardModel, board: Board): Promise<void> {
    const id = pick(model, this.which);
    const from = columnOf(model, id);
    const fromIndex = model.columns[from].indexOf(id);
    const target = model.columns[this.status].filter((other) => other !== id);
    const slot = this.slot % (target.length + 1);
    const after = target[slot - 1];
    const before = target[slot];
    const body: MoveTask = {
      status: this.status,
      ...(after && (this.naming !== 'before' || !before) ? { after_id: after } : {}),
      ...(before && (this.naming !== 'after' || !after) ? { before_id: before } : {}),
    };
    const version = model.versions.get(id) as number;
    const response = await taskApi().move(board.bearer, id, body, { 'If-Match': `"${version}"` });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const unchanged = from === this.status && fromIndex === slot;
    model.columns[from].splice(fromIndex, 1);
    model.columns[this.status].splice(slot, 0, id);
    const moved = response.body;
    expect(moved.version).toBe(unchanged ? version : version + 1);
    model.versions.set(id, moved.version);
    if (!unchanged) logEvent(model, id, 'task.moved');
  }
  toString = () => `Move(${this.which}, ${this.status}, ${this.slot}, ${this.naming})`;
}

/** A write against a version the task has left: always refused, and it changes nothing. */
class StaleEdit implements fc.AsyncCommand<BoardModel, Board> {
  constructor(readonly which: number) {}
  check = (model: Readonly<BoardModel>) =>
    liveTasks(model as BoardModel).some((id) => (model.versions.get(id) ?? 1) > 1);
  async run(model: BoardModel, board: Board): Promise<void> {
    const candidates = liveTasks(model).filter((id) => (model.versions.get(id) ?? 1) > 1);
    const id = candidates[this.which % candidates.length] as string;
    const version = model.versions.get(id) as number;
    const response = await taskApi().update(
      board.bearer,
      id,
      { title: 'Lost update' },
      { 'If-Match': `"${version - 1}"` },
    );
    expect(expectProblem(response, 412, 'precondition_failed').current_version).toBe(version);
  }
  toString = () => `StaleEdit(${this.which})`;
}

class Edit implements fc.AsyncCommand<BoardModel, Board> {
  constructor(readonly which: number) {}
  check = (model: Readonly<BoardModel>) => liveTasks(model as BoardModel).length > 0;
  async run(model: BoardModel, board: Board): Promise<void> {
    const id = pick(model, this.which);
    const version = model.versions.get(id) as number;
    const response = await taskApi().update(
      board.bearer,
      id,
      { title: `Edited ${randomUUID()}` },
      { 'If-Match': `"${version}"` },
    );
    expect(response.status).toBe(200);
    expect(response.body.version).toBe(version + 1);
    model.versions.set(id, version + 1);
    logEvent(model, id, 'task.updated');
  }
  toString = () => `Edit(${this.which})`;
}

class Delete implements fc.AsyncCommand<BoardModel, Board> {
  constructor(readonly which: number) {}
  check = (model: Readonly<BoardModel>) => liveTasks(model as BoardModel).length > 0;
  async run(model: BoardModel, board: Board): Promise<void> {
    const id = pick(model, this.which);
    const version = model.versions.get(id) as number;
    const response = await taskApi().remove(board.bearer, id, { 'If-Match': `"${version}"` });
    expect(response.status).toBe(204);
    const column = model.columns[columnOf(model, id)];
    column.splice(column.indexOf(id), 1);
    model.versions.delete(id);
    logEvent(model, id, 'task.deleted');
  }
  toString = () => `Delete(${this.which})`;
}

const commands = [
  fc.constantFrom(...STATUSES).map((status) => new Create(status)),
  fc
    .tuple(
      fc.nat(),
      fc.constantFrom(...STATUSES),
      fc.nat(),
      fc.constantFrom('after', 'before', 'both') as fc.Arbitrary<'after' | 'before' | 'both'>,
    )
    .map(([which, status, slot, naming]) => new Move(which, status, slot, naming)),
  fc.nat().map((which) => new StaleEdit(which)),
  fc.nat().map((which) => new Edit(which)),
  fc.nat().map((which) => new Delete(which)),
];

async function newBoard(): Promise<Board> {
  const fixture = await createWorkspaceWithRoles(api.db);
  const key = 'BRD';
  await asService(api.db, (sql) =>
    sql.query(
      `insert into public.projects (workspace_id, key, name, created_by) values ($1, $2, 'Board', $3)`,
      [fixture.id, key, fixture.owner.id],
    ),
  );
  return { fixture, key, bearer: fixture.member.accessToken };
}

/** The board as the API lists it in board order, every page. */
async function readBoard(board: Board): Promise<Task[]> {
  const tasks: Task[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `?sort=position&limit=7${cursor ? `&cursor=${cursor}` : ''}`;
    const response = await taskApi().list(board.bearer, board.fixture, board.key, query);
    expect(response.status).toBe(200);
    const page = response.body;
    tasks.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor);
  return tasks;
}

async function loggedEvents(taskIds: readonly string[]): Promise<Map<string, string[]>> {
  const rows = await asService(api.db, (sql) =>
    sql.query<{ task_id: string; type: string }>(
      'select task_id, type from public.events where task_id = any($1::uuid[]) order by seq',
      [taskIds],
    ),
  );
  const byTask = new Map<string, string[]>();
  for (const row of rows) byTask.set(row.task_id, [...(byTask.get(row.task_id) ?? []), row.type]);
  return byTask;
}

describe('the board against a model', () => {
  it('keeps a total order, refuses every stale write and logs exactly the changes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 25 }), async (sequence) => {
        const board = await newBoard();
        const model = emptyModel();
        await fc.asyncModelRun(() => ({ model, real: board }), sequence);

        const listed = await readBoard(board);
        for (const status of STATUSES) {
          const column = listed.filter((t) => t.status === status);
          expect(column.map((t) => t.id)).toEqual(model.columns[status]);
          const positions = column.map((t) => t.position);
          for (let i = 1; i < positions.length; i += 1) {
            expect(Buffer.compare(Buffer.from(positions[i - 1] ?? ''), Buffer.from(positions[i] ?? ''))).toBe(
              -1,
            );
          }
        }
        expect(listed.map((t) => t.status)).toEqual(
          STATUSES.flatMap((status) => model.columns[status].map(() => status)),
        );
        const events = await loggedEvents(model.made);
        for (const id of model.made) expect(events.get(id) ?? [], id).toEqual(model.events.get(id));
      }),
      { numRuns: 15 },
    );
  }, 120_000);
});
