import { useState } from 'react';
import { formatDueDate, isOverdue } from '../../../../lib/dates/due-date.ts';
import styles from './panel.module.css';

interface DueDateFieldProps {
  value: string | null;
  canEdit: boolean;
  onChange: (value: string | null) => void;
}

/** The due day with the browser's date input; saved when the field is left or Enter pressed, or cleared. */
export function DueDateField({ value, canEdit, onChange }: DueDateFieldProps) {
  const [draft, setDraft] = useState(value ?? '');
  const [seen, setSeen] = useState(value);
  // Someone else's change (or a rollback) replaces what the field shows.
  if (seen !== value) {
    setSeen(value);
    setDraft(value ?? '');
  }

  if (!canEdit) {
    return (
      <span className={value && isOverdue(value) ? styles.overdue : styles.propertyText}>
        {value ? formatDueDate(value) : 'No due date'}
      </span>
    );
  }

  const commit = () => {
    const next = draft === '' ? null : draft;
    if (next !== value) onChange(next);
  };

  return (
    <span className={styles.dueDate}>
      <input
        type="date"
        className={styles.dateInput}
        aria-label="Due date"
        value={draft}
        data-overdue={value !== null && isOverdue(value) ? '' : undefined}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit();
        }}
      />
      {value !== null && (
        <button type="button" className={styles.linkButton} onClick={() => onChange(null)}>
          Clear
        </button>
      )}
    </span>
  );
}
