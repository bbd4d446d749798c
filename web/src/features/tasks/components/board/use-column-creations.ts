import { useSyncExternalStore } from 'react';
import { ApiError, describeError } from '../../../../lib/api/api-error.ts';
import { useCreateTask, type TaskCreationRequest } from '../../api/create-task.ts';
import type { Task } from '../../api/list-tasks.ts';
import { createdTasks } from '../../created-tasks.ts';
import { creationColumn, taskCreations, type TaskCreation } from './task-creations.ts';

/** What the API would fill in for a task created from its title alone. */
const NEW_TASK = { description: '', priority: 'none', assignee_id: null, due_date: null } as const;

interface ColumnCreationsProps {
  slug: string;
  projectKey: string;
  status: Task['status'];
}

/**
 * A column's quick-add queue: the titles submitted and not yet on the board (saving, or failed with the
 * reason), a way to submit the next one, and for a failed one a retry (the same creation) or a discard.
 */
export function useColumnCreations({ slug, projectKey, status }: ColumnCreationsProps) {
  const column = creationColumn(slug, projectKey, status);
  const creations = useSyncExternalStore(taskCreations.subscribe, () => taskCreations.in(column));
  const create = useCreateTask(slug, projectKey, status, {
    onCreated: (request, task) => {
      taskCreations.remove(column, request.idempotencyKey);
      createdTasks.tell(task);
    },
    onFailed: (request, error) => taskCreations.fail(column, request.idempotencyKey, reasonFor(error)),
  });
  const send = (creation: TaskCreation) => {
    const request: TaskCreationRequest = {
      body: { ...NEW_TASK, label_ids: [], title: creation.title, status },
      idempotencyKey: creation.id,
    };
    create.mutate(request);
  };

  return {
    creations,
    /** A new title; `namesakes`: the ids of the column's tasks of that title now. */
    submit: (title: string, namesakes: readonly string[]) =>
      send(taskCreations.add(column, title, namesakes)),
    retry: (id: string) => {
      const creation = taskCreations.retry(column, id);
      if (creation) send(creation);
    },
    discard: (id: string) => taskCreations.remove(column, id),
  };
}

/** What to tell the person: the rule the title broke, or the API's own sentence. */
function reasonFor(error: unknown): string {
  const field = error instanceof ApiError ? error.errors.find((e) => e.path === 'body.title') : undefined;
  return field ? `Title ${field.message}.` : describeError(error);
}
