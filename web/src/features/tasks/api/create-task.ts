import { useMutation, type QueryClient } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { ApiError } from '../../../lib/api/api-error.ts';
import { shouldRetry } from '../../../lib/query/query-client.ts';
import { placeEverywhere } from '../realtime/apply-task-event.ts';
import type { Task } from './list-tasks.ts';
import { taskKeys } from './query-keys.ts';

type CreateTask = components['schemas']['CreateTask'];

/** A task to create, and the key that makes sending it again the same creation rather than a second task. */
export interface TaskCreationRequest {
  body: CreateTask;
  idempotencyKey: string;
}

interface CreateTaskCallbacks {
  /** Called in the same tick as the task's write into the cached lists: the board draws both at once. */
  onCreated: (request: TaskCreationRequest, task: Task) => void;
  /** Called once the creation failed for good (after the retries of what may pass on its own). */
  onFailed: (request: TaskCreationRequest, error: unknown) => void;
}

/**
 * POST /v1/workspaces/{slug}/projects/{key}/tasks with an `Idempotency-Key`. Creations into one column
 * go one at a time, in the order they were made (a mutation scope), so they land in that order: the API
 * appends each to its column. One that the network or a busy API lost is sent again with the same key,
 * which the API answers with the task it created, if it did, instead of creating another. The task is
 * then written into the cached lists rather than read again (decision 0036).
 */
export function useCreateTask(
  slug: string,
  key: string,
  status: Task['status'],
  callbacks: CreateTaskCallbacks,
) {
  const scope = `create-task:${slug}/${key}/${status}`;
  return useMutation({
    scope: { id: scope },
    mutationFn: ({ body, idempotencyKey }: TaskCreationRequest) =>
      unwrap(
        api.POST('/v1/workspaces/{slug}/projects/{key}/tasks', {
          params: { path: { slug, key }, header: { 'Idempotency-Key': idempotencyKey } },
          body,
        }),
      ),
    retry: (failures, error) => shouldRetry(failures, error) || (failures < 3 && isKeyInUse(error)),
    onSuccess: async (task, request, _result, { client }) => {
      const reads = await stopListReads(client, slug, key);
      placeEverywhere(client, task, slug);
      callbacks.onCreated(request, task);
      // A read that was stopped is started again: it finds this task and whatever else it was for.
      if (reads) await client.invalidateQueries({ queryKey: projectLists(slug, key) });
    },
    onError: (error, request) => callbacks.onFailed(request, error),
    onSettled: (_task, _error, _request, _result, { client }) => {
      // Once the column's queue is empty (this one, still pending, is its last), the counts are read again.
      const queued = client.isMutating({ predicate: (mutation) => mutation.options.scope?.id === scope });
      if (queued <= 1) void client.invalidateQueries({ queryKey: taskKeys.counts() });
    },
  });
}

/** The project's task lists: its board's columns and its list view, whatever their filters. */
function projectLists(slug: string, key: string) {
  return [...taskKeys.lists(), { slug, key }] as const;
}

/**
 * Stops the reads of the project's lists under way, and says whether there were any: one that started
 * before the task was created would put a list back as it was without it once the task is written in.
 */
async function stopListReads(client: QueryClient, slug: string, key: string): Promise<boolean> {
  const queryKey = projectLists(slug, key);
  if (client.isFetching({ queryKey }) === 0) return false;
  await client.cancelQueries({ queryKey });
  return true;
}

/** The first request with this key is still running (its answer was lost on the way): ask again shortly. */
function isKeyInUse(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'idempotency_key_in_use';
}
