/**
 * Row n: what telling a task's watchers costs a comment. The subject is
 * `POST /v1/tasks/{id}/comments` on a task that all 50 members of the workspace watch (49 of them told,
 * the commenter is not); the baseline is the same call on a task nobody else watches. The fan-out is one
 * statement in the comment's transaction (private.write_notifications), so the target is ≤ 1.2×. Each
 * contender rotates over three tasks (a task takes at most 1,000 comments). After the first comment a
 * watcher's notification is unread and the same person's next ones fold into it: each comment then
 * updates 49 rows instead of inserting them, the same number of rows written.
 */
import { registerEmailUser } from '../local/auth/user-registration.ts';
import type { BenchStack } from './bench-stack.ts';
import {
  addMembers,
  countMembers,
  countNotificationsOn,
  selectBacklogTasks,
  setWatchers,
} from './comment-fan-out.queries.ts';
import { httpClient } from './http-client.ts';
import { measureInterleaved, type Rounds } from './interleaved.ts';
import { API_PREFIX } from './list-overhead.ts';
import { ratioRow, type BenchRow } from './rows.ts';

/** The workspace's size in row n: the most members a workspace may have (MEMBERS_PER_WORKSPACE). */
const WATCHERS = 50;
const TASKS_PER_CONTENDER = 3;

export async function measureCommentFanOut(
  stack: BenchStack,
  rounds: Rounds,
  progress: (line: string) => void,
): Promise<BenchRow[]> {
  const { watched, unwatched } = await arrangeTasks(stack);
  const api = httpClient(stack.standIn.apiUrl);
  const commentOn = (tasks: readonly string[]) => {
    let turn = 0;
    return () =>
      api.call({
        method: 'POST',
        path: `${API_PREFIX}/tasks/${tasks[turn++ % tasks.length]}/comments`,
        headers: { authorization: `Bearer ${stack.accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ body: 'Measured by npm run bench: a comment of a realistic length.' }),
        expectStatus: 201,
      });
  };
  try {
    progress(
      `n: comments on tasks ${WATCHERS} people watch and on tasks nobody else watches, ${rounds.measured} each…`,
    );
    const latency = await measureInterleaved(
      { watched: commentOn(watched), alone: commentOn(unwatched) },
      rounds,
    );
    const told = await countNotificationsOn(stack.owner.statements, watched);
    return [
      {
        ...ratioRow(
          'n',
          { name: `comment on a task ${WATCHERS} people watch`, latency: latency.watched },
          { name: 'comment on a task nobody else watches', latency: latency.alone },
          1.2,
        ),
        note: `${told} notifications written on the watched tasks (folded per person and task)`,
      },
    ];
  } finally {
    api.close();
  }
}

/** Fills the workspace to WATCHERS members, then three tasks everyone watches and three nobody does. */
async function arrangeTasks(stack: BenchStack) {
  const { slug, big } = stack.seeded;
  const missing = WATCHERS - (await countMembers(stack.owner.statements, slug));
  await stack.owner.transaction(async (db) => {
    const extra: string[] = [];
    for (let index = 0; index < missing; index += 1) {
      const user = await registerEmailUser(db, {
        email: `bench-watcher-${index + 1}@tasklane.local`,
        password: 'bench-password',
        userMetadata: { display_name: `Bench Watcher ${index + 1}` },
        emailConfirmed: true,
      });
      extra.push(user.id);
    }
    await addMembers(db, slug, extra);
  });
  const tasks = await selectBacklogTasks(stack.owner.statements, big.id, 2 * TASKS_PER_CONTENDER + 2);
  // The first two are row b's movable tasks.
  const watched = tasks.slice(2, 2 + TASKS_PER_CONTENDER);
  const unwatched = tasks.slice(2 + TASKS_PER_CONTENDER);
  await setWatchers(stack.owner.statements, watched, unwatched);
  return { watched, unwatched };
}

export function describeCommentFanOutMethod(rounds: Rounds): string {
  return (
    `row n comments through the API taking turns, ${rounds.warmup.toLocaleString('en')} warm-up rounds then ` +
    `${rounds.measured.toLocaleString('en')} timed comments each, on 3 tasks all ${WATCHERS} members watch and ` +
    `3 tasks nobody else watches`
  );
}
