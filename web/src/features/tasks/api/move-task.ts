import { useMutation, useQueryClient, type MutationFunctionContext } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { ifMatch } from '../../../lib/api/if-match.ts';
import { optimisticUpdate, type OptimisticSnapshot } from '../../../lib/query/optimistic-update.ts';
import type { TaskCounts } from './count-tasks.ts';
import type { TaskPages } from './list-tasks.ts';
import { columnOf } from '../realtime/column-placement.ts';
import { writeTaskEverywhere } from '../realtime/apply-task-event.ts';
import { applyMove, applyMoveToCounts, type TaskMove } from './move-cache.ts';
import { taskKeys } from './query-keys.ts';

export type { TaskMove } from './move-cache.ts';

const leaving = optimisticUpdate<TaskPages, TaskMove>({
  queryKey: (move) => move.fromList,
  apply: (pages, move) => applyMove(pages, move, move.task.status),
});
const entering = optimisticUpdate<TaskPages, TaskMove>({
  queryKey: (move) => move.toList,
  apply: (pages, move) => applyMove(pages, move, move.body.status),
});
const counting = optimisticUpdate<TaskCounts, TaskMove>({
  queryKey: (move) => move.counts,
  apply: applyMoveToCounts,
});

type Snapshots = [
  OptimisticSnapshot<TaskPages>,
  OptimisticSnapshot<TaskPages> | null,
  OptimisticSnapshot<TaskCounts>,
];

/**
 * POST /v1/tasks/{id}/move with `If-Match`: the card moves in the cache at once (both columns and the
 * counts). The task the API answers takes its place in every cached copy (its new key and version, so the
 * move's own message, read back live, changes nothing); the counts are read again. Refused, the card goes
 * back where it was and the columns are read again too (someone else moved it, or the column changed).
 */
export function useMoveTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (move: TaskMove) =>
      unwrap(
        api.POST('/v1/tasks/{id}/move', {
          params: { path: { id: move.task.id }, header: ifMatch(move.task) },
          body: move.body,
        }),
      ),
    onMutate: async (move: TaskMove, context: MutationFunctionContext): Promise<Snapshots> => {
      const sameColumn = move.task.status === move.body.status;
      const from = await leaving.onMutate(move, context);
      const to = sameColumn ? null : await entering.onMutate(move, context);
      return [from, to, await counting.onMutate(move, context)];
    },
    onError: (
      error: unknown,
      move: TaskMove,
      snapshots: Snapshots | undefined,
      context: MutationFunctionContext,
    ) => {
      void queryClient.invalidateQueries({ queryKey: taskKeys.lists() });
      if (!snapshots) return;
      // Back in the reverse order, so a reorder within one column ends as it began.
      counting.onError(error, move, snapshots[2], context);
      if (snapshots[1]) entering.onError(error, move, snapshots[1], context);
      leaving.onError(error, move, snapshots[0], context);
    },
    onSuccess: (task, move) => {
      const column = columnOf(move.toList);
      if (column) writeTaskEverywhere(queryClient, task, column.slug);
      else void queryClient.invalidateQueries({ queryKey: taskKeys.lists() });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: taskKeys.counts() }),
  });
}
