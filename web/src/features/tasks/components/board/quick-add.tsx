import { useState, type KeyboardEvent } from 'react';
import type { Task } from '../../api/list-tasks.ts';
import { STATUS_LABELS } from '../task-meta/status.tsx';
import styles from './board.module.css';
import { useColumnCreations } from './use-column-creations.ts';

interface QuickAddProps {
  slug: string;
  projectKey: string;
  status: Task['status'];
  /** The column's tasks read so far. */
  tasks: readonly Task[];
  onClose: () => void;
}

/**
 * A title field at the top of a column: Enter empties it at once for the next title and queues the task,
 * which shows as a card being saved at the column's end until it is one (pending-cards.tsx); Esc (or
 * leaving it empty) closes it. What is typed is never touched by an answer of the API.
 */
export function QuickAdd({ slug, projectKey, status, tasks, onClose }: QuickAddProps) {
  const [title, setTitle] = useState('');
  const { submit } = useColumnCreations({ slug, projectKey, status });

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      // The Enter that ends an input method's composition picks the characters; it sends nothing.
      if (event.nativeEvent.isComposing) return;
      const typed = event.currentTarget.value.trim();
      if (!typed) return;
      setTitle('');
      submit(
        typed,
        tasks.filter((task) => task.title === typed).map((task) => task.id),
      );
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
        onChange={(event) => setTitle(event.target.value)}
        onKeyDown={onKeyDown}
        onBlur={() => {
          if (!title.trim()) onClose();
        }}
      />
    </div>
  );
}
