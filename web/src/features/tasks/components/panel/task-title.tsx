import { TaskTitleSchema } from '@api/tasks/tasks.schemas.ts';
import { useState, type KeyboardEvent } from 'react';
import { ConflictNotice } from './conflict-notice.tsx';
import type { Task } from './task-context.ts';
import { fieldMessage, type SaveOutcome } from './use-task-saver.ts';
import styles from './panel.module.css';

interface TaskTitleProps {
  task: Task;
  canEdit: boolean;
  save: (task: Task, patch: { title: string }, done: string) => Promise<SaveOutcome>;
}

/**
 * The title, edited in place: click it (or focus it and press Enter), then Enter or leaving the field
 * saves and Esc cancels. If someone else changed it first, the draft stays in the field beside theirs.
 */
export function TaskTitle({ task, canEdit, save }: TaskTitleProps) {
  const [draft, setDraft] = useState<string | null>(null);
  // The task as it was when editing began: others' changes now show live, and must not slip past If-Match.
  const [base, setBase] = useState<Task | null>(null);
  const [conflict, setConflict] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (!canEdit) return <h2 className={styles.title}>{task.title}</h2>;

  if (draft === null) {
    return (
      <h2 className={styles.title}>
        <button
          type="button"
          className={styles.titleButton}
          onClick={() => {
            setDraft(task.title);
            setBase(task);
          }}
        >
          {task.title}
        </button>
      </h2>
    );
  }

  const stop = () => {
    setDraft(null);
    setBase(null);
    setConflict(false);
    setError(null);
  };

  /** Saved over the version the draft began from, unless the title is still as it was then. */
  const commit = async (title: string, over: Task = base && base.title !== task.title ? base : task) => {
    const parsed = TaskTitleSchema.safeParse(title);
    if (!parsed.success) return setError(`The title ${parsed.error.issues[0]?.message ?? 'is not valid'}.`);
    if (parsed.data === task.title) return stop();
    setBusy(true);
    const outcome = await save(over, { title: parsed.data }, 'Title saved');
    setBusy(false);
    if (outcome.kind === 'saved') return stop();
    if (outcome.kind === 'conflict') {
      setError(null);
      return setConflict(true);
    }
    setError(fieldMessage(outcome, 'title'));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      void commit(draft);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      stop();
    }
  };

  return (
    <div className={styles.titleEditor} data-editing="">
      <input
        className={styles.titleInput}
        aria-label="Title"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'task-title-error' : undefined}
        value={draft}
        // The field replaces the title the person just clicked, so focus follows it there.
        autoFocus
        readOnly={busy}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={onKeyDown}
        onBlur={() => {
          if (!conflict && !busy) void commit(draft);
        }}
      />
      {error && (
        <p id="task-title-error" className={styles.fieldError}>
          {error}
        </p>
      )}
      {conflict && (
        <ConflictNotice
          field="title"
          current={<strong>{task.title}</strong>}
          busy={busy}
          onUseMine={() => void commit(draft, task)}
          onDiscardMine={stop}
        />
      )}
    </div>
  );
}
