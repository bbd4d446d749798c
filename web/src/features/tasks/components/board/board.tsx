import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Button } from '../../../../components/ui/button.tsx';
import { isTyping } from '../../../../lib/keyboard/is-typing.ts';
import { useTaskCounts } from '../../api/count-tasks.ts';
import { columnListFilters } from '../../api/list-tasks.ts';
import { taskKeys, type TaskListFilters } from '../../api/query-keys.ts';
import { type TaskStatus } from '../task-meta/status.tsx';
import { TASK_STATUSES } from '@shared/vocabulary/spec-values.ts';
import { BoardColumn, type ColumnHandle } from './board-column.tsx';
import { useCollapsedColumns } from './collapsed-columns.ts';
import { useLateBoardModules, type LateBoardModules } from './late-board-modules.ts';
import type { BoardPeople } from './board-people.ts';
import styles from './board.module.css';
import type { DragView } from './drag-view.ts';

export interface BoardProps {
  board: Omit<TaskListFilters, 'status' | 'sort' | 'limit'>;
  people: BoardPeople;
  /** Whether the caller may add and move cards (not a viewer, and the project is not archived). */
  canEdit: boolean;
  /** Whether filters narrow the board (then an empty board is not an empty project). */
  filtered: boolean;
}

/** No drag: each column shows what it read. */
const NO_DRAG: DragView = { columns: undefined, dragging: false };
/** A column that has not taken the late modules yet (late-board-modules.ts). */
const NOT_LOADED: LateBoardModules = {};

/**
 * The board: one column per status, in SPEC order, with drag and drop (pointer, touch, keyboard) within
 * and across columns, announced in words, arrow keys between cards, and `c` to add a task.
 */
export function Board({ board, people, canEdit, filtered }: BoardProps) {
  const queryClient = useQueryClient();
  const counts = useTaskCounts(board);
  const [adding, setAdding] = useState<TaskStatus | null>(null);
  // Once a quick-add has opened or the late modules have come (they load it), the columns show its queue for good:
  // its titles go on being saved, and stay shown, when it closes and while the late modules redraw the board.
  const [queueOpened, setQueueOpened] = useState(false);
  if (adding !== null && !queueOpened) setQueueOpened(true);
  // The columns' handles, kept by ref callbacks made once (a map that lives as long as the board).
  const [handles] = useState(() => new Map<TaskStatus, ColumnHandle>());
  // Stable, so that a column whose cards and count stay the same is not drawn again (BoardColumn is memoized).
  const { collapsed, setCollapsed } = useCollapsedColumns(board.slug, board.key);
  // A column opened to add a task to it unfolds.
  const onAddingChange = useCallback(
    (status: TaskStatus, open: boolean) => {
      if (open) setCollapsed(status, false);
      setAdding(open ? status : null);
    },
    [setCollapsed],
  );
  const [columnHandles] = useState(() => handleSetters(handles));
  const boardRef = useRef<HTMLDivElement>(null);

  // Every column has shown its first page (or its error): the rest of the board may load now (late-board-modules.ts).
  // (Read from the cache, drawn again as its fetches settle.)
  useIsFetching({ queryKey: taskKeys.lists() });
  const firstPagesShown = TASK_STATUSES.filter((status) => !collapsed.has(status)).every((status) => {
    const state = queryClient.getQueryState(taskKeys.list(columnListFilters(board, status)));
    return state !== undefined && state.status !== 'pending';
  });
  const { late, ready, handlers } = useLateBoardModules({
    canDrag: canEdit,
    shown: firstPagesShown,
    settled: adding === null,
    board: boardRef,
    columns: TASK_STATUSES.length,
  });

  // `c` opens the quick-add of the first column, unless the person is typing.
  useEffect(() => {
    if (!canEdit) return;
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'c' || event.metaKey || event.ctrlKey || event.altKey || isTyping(event.target))
        return;
      event.preventDefault();
      onAddingChange('backlog', true);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [canEdit, onAddingChange]);

  const onArrowKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!event.key.startsWith('Arrow')) return;
    const card = (event.target as HTMLElement).closest<HTMLElement>('a[data-task-key]');
    const status = card?.dataset['status'] as TaskStatus | undefined;
    if (!card || !status) return;
    // The index is on the card's slot, not the card: a card shifted by another's move is not drawn again.
    const index = Number(card.closest<HTMLElement>('li[data-index]')?.dataset['index']);
    if (focusNeighbour(handles, status, index, event.key)) event.preventDefault();
  };

  const content = ({ columns, dragging }: DragView) => (
    <>
      {/* The arrow keys only move focus between cards; every card is a link, reachable with Tab too. */}
      {counts.data?.total === 0 && (
        <div className={styles.empty}>
          <p>
            <strong>{filtered ? 'No tasks match these filters' : 'No tasks yet'}</strong>
            {filtered ? ' Clear a filter to see more.' : canEdit ? ' Add the first one to get going.' : ''}
          </p>
          {!filtered && canEdit && (
            <Button variant="primary" onClick={() => onAddingChange('todo', true)}>
              Create the first task
            </Button>
          )}
        </div>
      )}
      <div
        ref={boardRef}
        className={styles.board}
        onKeyDown={dragging ? undefined : onArrowKey}
        {...handlers}
      >
        {TASK_STATUSES.map((status, index) => (
          <BoardColumn
            key={status}
            status={status}
            board={board}
            count={dragging ? undefined : counts.data?.by_status[status]}
            dragTasks={columns?.[status]}
            people={people}
            canAdd={canEdit}
            late={index < ready ? late : NOT_LOADED}
            adding={adding === status}
            showsQueue={queueOpened || late.drag !== undefined}
            onAddingChange={onAddingChange}
            collapsed={collapsed.has(status)}
            onCollapsedChange={setCollapsed}
            handle={columnHandles[status]}
          />
        ))}
      </div>
    </>
  );
  const dnd = late.drag;
  if (!dnd) return content(NO_DRAG);
  return (
    <dnd.DragArea board={board} people={people} counts={counts.data?.by_status}>
      {content}
    </dnd.DragArea>
  );
}

/** One ref callback per column, made once, that keeps the column's handle in `handles`. */
function handleSetters(
  handles: Map<TaskStatus, ColumnHandle>,
): Record<TaskStatus, (handle: ColumnHandle | null) => void> {
  const setter = (status: TaskStatus) => (handle: ColumnHandle | null) => {
    if (handle) handles.set(status, handle);
    else handles.delete(status);
  };
  return Object.fromEntries(TASK_STATUSES.map((status) => [status, setter(status)])) as Record<
    TaskStatus,
    (handle: ColumnHandle | null) => void
  >;
}

function focusNeighbour(
  handles: ReadonlyMap<TaskStatus, ColumnHandle>,
  status: TaskStatus,
  index: number,
  key: string,
): boolean {
  if (key === 'ArrowDown') return handles.get(status)?.focusCard(index + 1) ?? false;
  if (key === 'ArrowUp') return handles.get(status)?.focusCard(index - 1) ?? false;
  const step = key === 'ArrowRight' ? 1 : key === 'ArrowLeft' ? -1 : 0;
  if (step === 0) return false;
  // The nearest column that way with a card, at the same height or its last card.
  for (let at = TASK_STATUSES.indexOf(status) + step; at >= 0 && at < TASK_STATUSES.length; at += step) {
    const handle = handles.get(TASK_STATUSES[at] as TaskStatus);
    if (handle?.focusCard(index) || handle?.focusCard(handle.lastIndex())) return true;
  }
  return false;
}
