import { Link } from '@tanstack/react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import { Avatar } from '../../../../components/ui/avatar.tsx';
import { Button } from '../../../../components/ui/button.tsx';
import { Spinner } from '../../../../components/ui/spinner.tsx';
import { describeError } from '../../../../lib/api/api-error.ts';
import { TASK_PAGE_SIZE, tasksOf, useTaskList } from '../../api/list-tasks.ts';
import type { TaskListFilters } from '../../api/query-keys.ts';
import type { ListSort } from '../../board-search.ts';
import { clickedRow, NO_SELECTION, selectedIn, toggledAll } from '../../list-selection.ts';
import { formatDueDate, isOverdue } from '../../../../lib/dates/due-date.ts';
import { LabelChip } from '../task-meta/label-chip.tsx';
import { PRIORITY_LABELS, PriorityIcon } from '../task-meta/priority.tsx';
import { STATUS_LABELS, StatusIcon } from '../task-meta/status.tsx';
import type { BoardPeople } from './board-people.ts';
import { BulkActions } from './bulk-actions.tsx';
import styles from './task-table.module.css';

const ROW_HEIGHT = 40;

/** The sortable columns and the API sort each stands for; `position` (board order) has no reverse. */
const SORTABLE = {
  key: { asc: 'created_at', desc: '-created_at' },
  status: { asc: 'position', desc: null },
  priority: { asc: '-priority', desc: 'priority' },
  due: { asc: 'due_date', desc: '-due_date' },
} as const satisfies Record<string, { asc: ListSort; desc: ListSort | null }>;

type SortableColumn = keyof typeof SORTABLE;

interface TaskTableProps {
  board: Omit<TaskListFilters, 'status' | 'sort' | 'limit'>;
  people: BoardPeople;
  sort: ListSort;
  onSortChange: (sort: ListSort) => void;
  /** Whether the caller may change the tasks: rows can then be selected (a viewer sees no checkboxes). */
  canEdit: boolean;
}

/** The list view: the board's tasks as a table, sorted by the API, paged and drawn as rows come into view. */
export function TaskTable({ board, people, sort, onSortChange, canEdit }: TaskTableProps) {
  const list = useTaskList({ ...board, sort, limit: TASK_PAGE_SIZE });
  const tasks = tasksOf(list.data);
  const ids = tasks.map((task) => task.id);
  const [selection, setSelection] = useState(NO_SELECTION);
  // Read against the list as it is now: a task deleted or filtered out meanwhile is no longer selected.
  const selected = canEdit ? selectedIn(selection, ids) : [];
  const clearSelection = () => setSelection(NO_SELECTION);
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual measures on every render by design
  const virtualizer = useVirtualizer({
    count: tasks.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  const rows = virtualizer.getVirtualItems();
  const lastShown = rows.at(-1)?.index ?? -1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastShown >= tasks.length - 10) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, lastShown, tasks.length]);

  const header = (column: SortableColumn, label: string) => {
    const { asc, desc } = SORTABLE[column];
    const direction = sort === asc ? 'ascending' : sort === desc ? 'descending' : 'none';
    const next = direction === 'ascending' && desc ? desc : asc;
    return (
      <th scope="col" aria-sort={direction} className={styles[column]}>
        <button type="button" className={styles.sortButton} onClick={() => onSortChange(next)}>
          {label}
          <span aria-hidden="true">
            {direction === 'ascending' ? '↑' : direction === 'descending' ? '↓' : ''}
          </span>
        </button>
      </th>
    );
  };

  if (list.isError && tasks.length === 0) {
    return (
      <div className={styles.message} role="alert">
        <p>{describeError(list.error)}</p>
        <Button variant="link" onClick={() => void list.refetch()}>
          Retry
        </Button>
      </div>
    );
  }

  const top = rows[0]?.start ?? 0;
  const bottom = virtualizer.getTotalSize() - (rows.at(-1)?.end ?? 0);
  return (
    <div
      className={styles.frame}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || selected.length === 0) return;
        event.stopPropagation();
        clearSelection();
      }}
    >
      {selected.length > 0 && (
        <div className={styles.selectionBar} role="region" aria-label="Selected tasks">
          <BulkActions
            tasks={tasks.filter((task) => selection.selected.has(task.id))}
            people={people}
            onFinished={(failed) => setSelection({ selected: new Set(failed), anchor: null })}
          />
          <Button variant="link" onClick={clearSelection}>
            Clear selection
          </Button>
        </div>
      )}
      <div ref={scrollRef} className={styles.scroll}>
        <table className={styles.table}>
          <thead>
            <tr>
              {canEdit && (
                <th scope="col" className={styles.select}>
                  <SelectBox
                    label="Select all tasks"
                    checked={selected.length > 0 && selected.length === ids.length}
                    indeterminate={selected.length > 0 && selected.length < ids.length}
                    onToggle={() => setSelection(toggledAll(selection, ids))}
                  />
                </th>
              )}
              {header('key', 'Key')}
              <th scope="col" className={styles.title}>
                Title
              </th>
              {header('status', 'Status')}
              {header('priority', 'Priority')}
              <th scope="col" className={styles.labels}>
                Labels
              </th>
              <th scope="col" className={styles.assignee}>
                Assignee
              </th>
              {header('due', 'Due')}
            </tr>
          </thead>
          <tbody>
            {top > 0 && <tr aria-hidden="true" style={{ height: top }} />}
            {rows.map((row) => {
              const task = tasks[row.index];
              if (!task) return null;
              const assignee = task.assignee_id ? people.members.get(task.assignee_id) : undefined;
              const overdue = task.due_date !== null && isOverdue(task.due_date) && task.status !== 'done';
              const labels = task.label_ids.flatMap((id) => people.labels.get(id) ?? []);
              return (
                <tr
                  key={task.id}
                  className={styles.row}
                  style={{ height: ROW_HEIGHT }}
                  data-selected={selection.selected.has(task.id) || undefined}
                >
                  {canEdit && (
                    <td className={styles.select}>
                      <SelectBox
                        label={`Select ${task.key}`}
                        checked={selection.selected.has(task.id)}
                        onToggle={(shift) => setSelection(clickedRow(selection, ids, task.id, shift))}
                      />
                    </td>
                  )}
                  <td className={styles.key}>{task.key}</td>
                  <td className={styles.title}>
                    <Link
                      to="/w/$slug/p/$key/t/$number"
                      params={{ slug: board.slug, key: board.key, number: task.number }}
                      search={(previous) => previous}
                      data-task-key={task.key}
                      className={styles.link}
                    >
                      {task.title}
                    </Link>
                  </td>
                  <td className={styles.status}>
                    <span className={styles.cell}>
                      <StatusIcon status={task.status} />{' '}
                      <span className={styles.statusLabel}>{STATUS_LABELS[task.status]}</span>
                    </span>
                  </td>
                  <td className={styles.priority}>
                    <span className={styles.cell}>
                      <PriorityIcon priority={task.priority} /> {PRIORITY_LABELS[task.priority]}
                    </span>
                  </td>
                  <td className={styles.labels}>
                    <span className={styles.cell}>
                      {labels.map((label) => (
                        <LabelChip key={label.id} name={label.name} color={label.color} />
                      ))}
                    </span>
                  </td>
                  <td className={styles.assignee}>
                    {assignee ? (
                      <span className={styles.cell}>
                        <Avatar name={assignee.name} id={assignee.id} src={assignee.avatarUrl} decorative />{' '}
                        {assignee.name}
                      </span>
                    ) : (
                      <span className={styles.muted}>Unassigned</span>
                    )}
                  </td>
                  <td className={overdue ? `${styles.due} ${styles.overdue}` : styles.due}>
                    {task.due_date ? formatDueDate(task.due_date) : <span className={styles.muted}>—</span>}
                  </td>
                </tr>
              );
            })}
            {bottom > 0 && <tr aria-hidden="true" style={{ height: bottom }} />}
          </tbody>
        </table>
        {list.isPending && (
          <p className={styles.message}>
            <Spinner /> Loading tasks…
          </p>
        )}
        {list.isSuccess && tasks.length === 0 && <p className={styles.message}>No tasks match.</p>}
        {isFetchingNextPage && (
          <p className={styles.message}>
            <Spinner /> Loading more…
          </p>
        )}
      </div>
    </div>
  );
}

/** A real checkbox; `onToggle` learns whether shift was held (a range), by mouse or by keyboard. */
function SelectBox({
  label,
  checked,
  indeterminate = false,
  onToggle,
}: {
  label: string;
  checked: boolean;
  indeterminate?: boolean;
  onToggle: (shift: boolean) => void;
}) {
  return (
    <input
      type="checkbox"
      className={styles.checkbox}
      aria-label={label}
      checked={checked}
      ref={(box) => {
        if (box) box.indeterminate = indeterminate;
      }}
      // The click carries the shift key (Space on a focused checkbox clicks it too); the change event does
      // not, so the click does the work and the change has nothing left to do.
      onClick={(event) => onToggle(event.shiftKey)}
      onChange={() => undefined}
    />
  );
}
