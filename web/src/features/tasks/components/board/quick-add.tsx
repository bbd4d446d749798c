import { useState, type KeyboardEvent } from 'react';
import { toast } from '../../../../components/ui/toast.ts';
import { describeError, ApiError } from '../../../../lib/api/api-error.ts';
import { useCreateTask } from '../../api/create-task.ts';
import type { Task } from '../../api/list-tasks.ts';
import { STATUS_LABELS } from '../task-meta/status.tsx';
import styles from './board.module.css';

/** What the API would fill in for a task created from its title alone. */
const NEW_TASK = { description: '', priority: 'none', assignee_id: null, due_date: null } as const;

interface QuickAddProps {
  slug: string;
  projectKey: string;
  status: Task['status'];
  onClose: () => void;
}

/**
 * A title field at the top of a column: Enter creates the task in that column and leaves the field open
 * for the next one; Esc (or leaving it empty) closes it.
 */
export function QuickAdd({ slug, projectKey, status, onClose }: QuickAddProps) {
  const [title, setTitle] = useState('');
  const [error, setError] = useState<string | undefined>();
  const create = useCreateTask(slug, projectKey);
  const errorId = `quick-add-${status}-error`;

  const submit = () => {
    const trimmed = title.trim();
    if (!trimmed) return;
    create.mutate(
      { ...NEW_TASK, label_ids: [], title: trimmed, status },
      {
        onSuccess: (task) => {
          setTitle('');
          setError(undefined);
          toast.success(`Created ${task.key}`);
        },
        onError: (cause) => {
          const field =
            cause instanceof ApiError ? cause.errors.find((e) => e.path === 'body.title') : undefined;
          if (field) setError(`Title ${field.message}.`);
          else toast.error(describeError(cause));
        },
      },
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      submit();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onClose();
    }
  };

  return (
    <div className={styles.quickAdd}>
      <input
        className={styles.quickAddInput}
        // Opened on purpose by the person (a button or `c`), so the field takes focus.
        autoFocus
        value={title}
        maxLength={200}
        placeholder="Task title, then Enter"
        aria-label={`New task in ${STATUS_LABELS[status]}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => setTitle(event.target.value)}
        onKeyDown={onKeyDown}
        onBlur={() => {
          if (!title.trim() && !create.isPending) onClose();
        }}
      />
      {error && (
        <p id={errorId} className={styles.quickAddError}>
          {error}
        </p>
      )}
    </div>
  );
}
