/**
 * How many times a request waits on the database (docs/decisions/0016): at most 2 round trips for a read
 * and 3 for a write, with an access token and with an API token alike. A round trip starts whenever a
 * statement is sent on a connection that has none outstanding; statements sent behind an outstanding one
 * (the connection pipelines) ride in its round trip. The answer waits for every round trip but those of
 * the bookkeeping it leaves behind (`runAfterResponse`); those are counted too, once they are done, so that
 * nothing hides: each request is held to both counts.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAfterResponseSettled, isAfterAnswer } from '../../supabase/functions/_shared/after-response.ts';
import { EXPORT_BATCH_SIZE } from '../../supabase/functions/api/export/export.queries.ts';
import { useTestApp, RATE_LIMITS_OUT_OF_THE_WAY } from '../support/api-app.ts';
import { isStorageStandInClient } from '../support/test-storage.ts';
import { callApi, type ApiResponse } from '../support/api-request.ts';
import { addressOf, OPERATIONS, requestInitOf, SAFE_METHODS, type Operation } from '../support/operations.ts';
import { jsonRequest } from '../support/resource-calls.ts';
import { projectIn, taskCalls, taskIn, type Project, type Task } from '../support/task-calls.ts';
import { accessTokenClaims, signWithTestKey, withBearer } from '../support/test-users.ts';
import {
  createApiTokenFor,
  createWorkspaceWithRoles,
  type WorkspaceFixture,
} from '../support/workspace-fixture.ts';

// Storage runs in this process too: its own database clients are not the API's round trips, and the
// upload sweep (one batch per instance every 10 minutes, docs/decisions/0024) is not a request's.
const api = useTestApp({ rateLimits: RATE_LIMITS_OUT_OF_THE_WAY, withStorage: true, sweepUploads: false });
const tasks = () => taskCalls(api.app);

interface PipelinedClient {
  _activeQuery: unknown;
  _sentQueryQueue: unknown[];
  _queryQueue: unknown[];
}

/** Counts round trips on every node-postgres client while `counting` is set. */
let roundTrips = 0;
/** Of those, the ones the answer does not wait for. */
let afterTheAnswer = 0;
let counting = false;
const originalQuery = pg.Client.prototype.query;
beforeAll(() => {
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const client = this as unknown as PipelinedClient;
    const outstanding =
      client._activeQuery != null || client._sentQueryQueue.length > 0 || client._queryQueue.length > 0;
    if (counting && !outstanding && !isStorageStandInClient(this)) {
      roundTrips += 1;
      if (isAfterAnswer()) afterTheAnswer += 1;
    }
    return (originalQuery as (...args: unknown[]) => unknown).apply(this, args);
  } as typeof pg.Client.prototype.query;
});
afterAll(() => {
  pg.Client.prototype.query = originalQuery;
});

interface RoundTrips {
  /** The round trips the answer waits for. */
  waitedFor: number;
  /** Every round trip, those of the bookkeeping left for after the answer included. */
  all: number;
}

/**
 * Round trips of `request`, which must answer `status`. `warmUp` goes first, uncounted, so that the
 * connections exist (a new one sets its session's bounds first): by default the request itself, once.
 */
async function roundTripsOf(
  request: () => Promise<ApiResponse>,
  status: number,
  warmUp: () => Promise<unknown> = request,
): Promise<RoundTrips> {
  await warmUp();
  await runAfterResponseSettled();
  roundTrips = 0;
  afterTheAnswer = 0;
  counting = true;
  try {
    const response = await request();
    expect(response.status, JSON.stringify(response.body)).toBe(status);
    await runAfterResponseSettled();
  } finally {
    counting = false;
  }
  return { waitedFor: roundTrips - afterTheAnswer, all: roundTrips };
}

/** A request's round trips, held to `waitedFor` for its answer and `all` in all (the same unless given). */
function expectAtMost(trips: RoundTrips, waitedFor: number, all = waitedFor): void {
  expect(trips.waitedFor, 'round trips the answer waits for').toBeLessThanOrEqual(waitedFor);
  expect(trips.all, 'round trips in all').toBeLessThanOrEqual(all);
}

let acme: WorkspaceFixture;
let project: Project;
const bearers: Record<string, string> = {};
beforeAll(async () => {
  acme = await createWorkspaceWithRoles(api.db);
  project = await projectIn(api.app, acme);
  bearers['an access token'] = acme.member.accessToken;
  bearers['an API token'] = await createApiTokenFor(api.app, acme.member, 'write');
});

describe.each(['an access token', 'an API token'])('round trips with %s', (credential) => {
  const bearer = () => bearers[credential] ?? '';

  it('lists tasks in at most 2', async () => {
    expectAtMost(await roundTripsOf(() => tasks().list(bearer(), acme, project.key), 200), 2);
  });

  it('creates a task in at most 3', async () => {
    const create = () => tasks().create(bearer(), acme, project.key, { title: 'New', status: 'todo' });
    expectAtMost(await roundTripsOf(create, 201), 3);
  });

  it('moves a task in at most 2', async () => {
    const first = await taskIn(api.app, acme, project.key);
    const second = await taskIn(api.app, acme, project.key);
    // Back and forth, each time to where it is not: a move that changes nothing writes nothing.
    let above = true;
    const move = () => {
      const body = above
        ? { status: 'todo' as const, before_id: first.id }
        : { status: 'todo' as const, after_id: first.id };
      above = !above;
      return tasks().move(bearer(), second.id, body);
    };
    expectAtMost(await roundTripsOf(move, 200), 2);
  });

  it('changes a task in at most 3', async () => {
    const task = await taskIn(api.app, acme, project.key);
    let title = 0;
    const update = () => tasks().update(bearer(), task.id, { title: `Changed ${(title += 1)}` });
    expectAtMost(await roundTripsOf(update, 200), 3);
  });

  it('deletes a task in at most 3', async () => {
    const doomed: Task[] = [
      await taskIn(api.app, acme, project.key),
      await taskIn(api.app, acme, project.key),
    ];
    const remove = () => tasks().remove(bearer(), doomed.shift()?.id ?? '');
    expectAtMost(await roundTripsOf(remove, 204), 3);
  });

  it('comments on a task in at most 3', async () => {
    const task = await taskIn(api.app, acme, project.key);
    const comment = () =>
      callApi(
        api.app,
        `/api/v1/tasks/${task.id}/comments`,
        withBearer(bearer(), jsonRequest('POST', { body: 'A comment' })),
      );
    expectAtMost(await roundTripsOf(comment, 201), 3);
  });
});

/**
 * The operations that may still take more than their kind's target, with what they take today: each
 * must not take more. Every other operation of the table is held to 2 for a read, 3 for a write, both
 * for what its answer waits for and in all.
 */
const EXCEPTIONS: Partial<Record<string, { waitedFor: number; all: number }>> = {
  // The invitation, its mail in the outbox and the COMMIT make 3; the mail is sent (it must not leave
  // before the COMMIT) before the answer, and marked sent after it, with other mail due for a retry
  // claimed in the same round trip (0014, 0016): a fourth round trip the answer does not wait for.
  createInvitation: { waitedFor: 3, all: 4 },
  // An import checks access before it reads the file (1), then, in its transaction, reads the workspace
  // and what an earlier import made with the access (1), and writes each kind of row after the one whose
  // ids it needs: a project, its tasks, the import with the COMMIT (3). Labels, comments and every
  // further batch of 500 tasks take one more each.
  createImport: { waitedFor: 5, all: 5 },
  // Likewise the attachment's file: its deletion queues the object's removal (docs/decisions/0024), the
  // request removes it through Storage before answering, and forgets the queued removal after the answer,
  // claiming any other removal due in the same round trip: a fourth the answer does not wait for.
  deleteAttachment: { waitedFor: 3, all: 4 },
  // exportWorkspace meets the read target now (0016): its budget is spent with the credential's check,
  // and a workspace that fits in the first batch is committed with it. A larger one is read again from
  // a snapshot that stays open while it streams: a round trip per further batch, and the COMMIT.
};

/** The round trips each operation took, printed after the run (docs/decisions/0016's table). */
const measured = new Map<string, RoundTrips>();
afterAll(() => {
  const rows = [...measured].map(
    ([operationId, { waitedFor, all }]) => `${operationId.padEnd(28)} ${waitedFor} (${all} in all)`,
  );
  console.log(`round trips per operation, waited for by the answer:\n${rows.join('\n')}`);
});

const isRead = (operation: Operation) => SAFE_METHODS.includes(operation.method);

/** The operation's call, for the caller it allows: the owner, or the invitee of an invitation. */
async function sendsOf(operation: Operation): Promise<() => Promise<ApiResponse>> {
  const fixture = await createWorkspaceWithRoles(api.db);
  const ownerBearer = await signWithTestKey(accessTokenClaims(fixture.owner, 'aal2'));
  const call = await operation.prepare({ app: api.app, db: api.db, fixture, ownerBearer });
  const caller = operation.access.kind === 'invitee' ? fixture.outsider : fixture.owner;
  const init = requestInitOf(operation.method, call);
  return () => callApi(api.app, addressOf(operation.path, call.params), withBearer(caller.accessToken, init));
}

/** Round trips of one call, which may be sent only once: another request warms the connections up. */
const roundTripsOfOnce = (request: () => Promise<ApiResponse>, status: number): Promise<RoundTrips> =>
  roundTripsOf(request, status, () => callApi(api.app, '/api/v1/me', withBearer(acme.member.accessToken)));

describe('round trips of every operation, with an access token', () => {
  // The scheduler's call is nobody's request: a person's token is refused before any round trip.
  it.each(
    OPERATIONS.filter((operation) => operation.access.kind !== 'service').map((operation) => ({
      ...operation,
      kind: isRead(operation) ? 'read' : 'write',
    })),
  )('$operationId ($kind)', async (operation) => {
    const send = await sendsOf(operation);
    const trips = await roundTripsOfOnce(send, operation.success);
    measured.set(operation.operationId, trips);
    const target = isRead(operation) ? 2 : 3;
    const exception = EXCEPTIONS[operation.operationId];
    expectAtMost(trips, exception?.waitedFor ?? target, exception?.all ?? target);
  });
});

/** Requests that cost more by their nature, each held to what it takes today. */
describe('round trips of the exceptions by kind of request, with an access token', () => {
  const bearer = () => acme.member.accessToken;

  // A 304 is not counted (docs/product.md#api-conventions): the count taken with the credential's check is
  // handed back once the read has shown the answer is a 304, in a round trip of its own that the answer does
  // not wait for (0016).
  it('answers a conditional read of an unchanged task 304 after 2, and hands its count back in a third', async () => {
    const task = await taskIn(api.app, acme, project.key);
    const first = await tasks().get(bearer(), task.id);
    const etag = first.headers.get('etag') ?? '';
    const conditional = () => tasks().get(bearer(), task.id, { 'If-None-Match': etag });
    const trips = await roundTripsOf(conditional, 304);
    measured.set('getTask, 304', trips);
    expectAtMost(trips, 2, 3);
  });

  // An Idempotency-Key adds one (0016): its claim rides with the credential's check, but the record of
  // the answer waits for the work's last statement, and goes with the COMMIT.
  it('creates a task with an Idempotency-Key in at most 4', async () => {
    let key = 0;
    const create = () =>
      tasks().create(
        bearer(),
        acme,
        project.key,
        { title: 'Keyed' },
        { 'Idempotency-Key': `trips-${(key += 1)}` },
      );
    const trips = await roundTripsOf(create, 201);
    measured.set('createTask, Idempotency-Key', trips);
    expectAtMost(trips, 4);
  });

  // A workspace past one batch of EXPORT_BATCH_SIZE rows (0016): the credential with the budget, the
  // first batch with its COMMIT, the first batch again from a snapshot that stays open, the second
  // batch, and the COMMIT; the first byte waits for the first three.
  it('exports a workspace of two batches in at most 5', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const seeder = new pg.Client({ connectionString: api.databaseUrl });
    await seeder.connect();
    try {
      const { rows } = await seeder.query<{ id: string }>(
        `insert into public.projects (workspace_id, key, name, created_by) values ($1, 'BIG', 'Big', $2)
         returning id`,
        [fixture.id, fixture.owner.id],
      );
      await seeder.query(
        `insert into public.tasks (project_id, title, position, created_by)
         select $1, 'Task ' || n, 'a' || lpad(n::text, 6, '0'), $2 from generate_series(1, $3) n`,
        [rows[0]?.id, fixture.owner.id, EXPORT_BATCH_SIZE + 100],
      );
    } finally {
      await seeder.end();
    }
    const exported = () => callApi(api.app, `${fixture.path}/export`, withBearer(fixture.owner.accessToken));
    const trips = await roundTripsOfOnce(exported, 200);
    measured.set('exportWorkspace, 2 batches', trips);
    expectAtMost(trips, 5);
  });
});
