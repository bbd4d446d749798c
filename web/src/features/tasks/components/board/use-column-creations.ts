import { useSearch } from '@tanstack/react-router';
import { useSyncExternalStore } from 'react';
import { toast } from '../../../../components/ui/toast.ts';
import { ApiError, describeError } from '../../../../lib/api/api-error.ts';
import { filtersHide, type BoardSearch } from '../../board-search.ts';
import { useOpenTask } from '../../use-open-task.ts';
import { useCreateTask, type TaskCreationRequest } from '../../api/create-task.ts';
import type { Task } from '../../api/list-tasks.ts';
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
  const hidden = useHiddenCreations(slug);
  const create = useCreateTask(slug, projectKey, status, {
    onCreated: (request, task) => {
      taskCreations.remove(column, request.idempotencyKey);
      hidden(task);
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

/**
 * Says so when a task created on a filtered board is one its filters leave out (the card would just
 * vanish), with a way to open it.
 */
function useHiddenCreations(slug: string): (task: Task) => void {
  const search: BoardSearch = useSearch({ strict: false });
  const { open } = useOpenTask();
  return (task) => {
    if (!filtersHide(search, task)) return;
    toast.success(`${task.key} created — hidden by the current filter.`, {
      duration: 10_000,
      action: { label: 'Open', onClick: () => open(slug, task.key) },
    });
  };
}
