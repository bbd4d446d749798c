import type { Active, Announcements, DragEndEvent, DragOverEvent, DragStartEvent } from '@dnd-kit/core';
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../../../components/ui/toast.ts';
import { Button } from '../../../../components/ui/button.tsx';
import { ApiError, describeError } from '../../../../lib/api/api-error.ts';
import { useTaskCounts } from '../../api/count-tasks.ts';
import { columnListFilters, tasksOf, type Task, type TaskPages } from '../../api/list-tasks.ts';
import { useMoveTask, type TaskMove } from '../../api/move-task.ts';
import { taskKeys, type TaskListFilters } from '../../api/query-keys.ts';
import { STATUS_LABELS, STATUSES, type TaskStatus } from '../task-meta/status.tsx';
import { BoardColumn, type ColumnHandle } from './board-column.tsx';
import type { BoardPeople } from './board-people.ts';
import styles from './board.module.css';
import { dragOver, dropOf, type Columns } from './drag-columns.ts';
import { useBoardKit } from './board-kit.ts';
import { isTyping } from '../../../../lib/keyboard/is-typing.ts';
import type { CardData } from './sortable-card.tsx';
import { TaskCard } from './task-card.tsx';

export interface BoardProps {
  board: Omit<TaskListFilters, 'status' | 'sort' | 'limit'>;
  people: BoardPeople;
  /** Whether the caller may add and move cards (not a viewer, and the project is not archived). */
  canEdit: boolean;
  /** Whether filters narrow the board (then an empty board is not an empty project). */
  filtered: boolean;
}

interface Drag {
  active: Task;
  columns: Columns;
}

/**
 * The board: one column per status, in SPEC order, with drag and drop (pointer, touch, keyboard) within
 * and across columns, announced in words, arrow keys between cards, and `c` to add a task.
 */
export function Board({ board, people, canEdit, filtered }: BoardProps) {
  const queryClient = useQueryClient();
  const counts = useTaskCounts(board);
  const move = useMoveTask();
  const [drag, setDragState] = useState<Drag | null>(null);
  // The announcements read the drag as it is at the moment dnd-kit asks, not as of the last render.
  const dragRef = useRef<Drag | null>(null);
  const setDrag = (next: Drag | null) => {
    dragRef.current = next;
    setDragState(next);
  };
  const [landing, setLanding] = useState<{ columns: Columns; move: TaskMove } | null>(null);
  const landingShown =
    landing !== null && (move.variables !== landing.move || (move.context === undefined && !move.isError));
  const shown = drag?.columns ?? (landingShown ? landing.columns : undefined);
  const [adding, setAdding] = useState<TaskStatus | null>(null);
  const handles = useRef(new Map<TaskStatus, ColumnHandle>());
  const boardRef = useRef<HTMLDivElement>(null);

  const columnOf = useCallback(
    (status: TaskStatus): Task[] =>
      tasksOf(queryClient.getQueryData<TaskPages>(taskKeys.list(columnListFilters(board, status)))),
    [queryClient, board],
  );

  // Every column has shown its first page (or its error): the rest of the board may load now (board-kit.ts).
  // (Read from the cache, drawn again as its fetches settle.)
  useIsFetching({ queryKey: taskKeys.lists() });
  const firstPagesShown = STATUSES.every((status) => {
    const state = queryClient.getQueryState(taskKeys.list(columnListFilters(board, status)));
    return state !== undefined && state.status !== 'pending';
  });
  const { kit, handlers } = useBoardKit({
    canDrag: canEdit,
    shown: firstPagesShown,
    settled: adding === null,
    board: boardRef,
  });
  const columnsNow = useCallback(() => dragRef.current?.columns, []);

  const snapshot = useCallback(
    () =>
      Object.fromEntries(STATUSES.map((status) => [status, columnOf(status)])) as Record<TaskStatus, Task[]>,
    [columnOf],
  );

  // Read when dnd-kit announces, which may be before this component has seen the drag's latest state.
  const announcements = useMemo<Announcements>(() => {
    const where = (id: string | number) => {
      const columns = dragRef.current?.columns ?? snapshot();
      const status = STATUSES.find((s) => columns[s].some((task) => task.id === id));
      if (!status) return 'the board';
      const index = columns[status].findIndex((task) => task.id === id);
      const counted = counts.data?.by_status[status];
      const total =
        counted === undefined ? columns[status].length : Math.max(counted, columns[status].length);
      return `${STATUS_LABELS[status]}, position ${index + 1} of ${total}`;
    };
    const keyOf = (active: Active) => (active.data.current as CardData | undefined)?.task.key ?? 'the task';
    return {
      onDragStart: ({ active }) => `Picked up ${keyOf(active)}. It is in ${where(active.id)}.`,
      onDragOver: ({ active }) => `${keyOf(active)} is over ${where(active.id)}.`,
      onDragEnd: ({ active }) => `Moved ${keyOf(active)} to ${where(active.id)}.`,
      onDragCancel: ({ active }) => `Put ${keyOf(active)} back where it was.`,
    };
  }, [counts.data, snapshot]);

  const onDragStart = ({ active }: DragStartEvent) => {
    const columns = snapshot();
    const task = STATUSES.flatMap((status) => columns[status]).find((t) => t.id === active.id);
    if (task) setDrag({ active: task, columns });
  };

  const onDragOver = ({ active, over }: DragOverEvent) => {
    const current = dragRef.current;
    if (!current || !over) return;
    const next = dragOver(current.columns, String(active.id), String(over.id));
    if (next !== current.columns) setDrag({ ...current, columns: next });
  };

  const onDragEnd = ({ over }: DragEndEvent) => {
    const current = dragRef.current;
    if (!current || !over) {
      setDrag(null);
      return;
    }
    const drop = dropOf(current.columns, current.active, String(over.id), columnOf(current.active.status));
    if (drop) {
      const task = current.active;
      const filters = (status: TaskStatus) => taskKeys.list(columnListFilters(board, status));
      const variables: TaskMove = {
        task,
        body: drop.body,
        fromList: filters(task.status),
        toList: filters(drop.body.status),
        counts: taskKeys.count(board),
      };
      move.mutate(variables, { onError: (error) => toast.error(moveErrorMessage(task, error)) });
      const byId = new Map(current.columns[drop.body.status].map((t) => [t.id, t]));
      const landed = { ...current.columns, [drop.body.status]: drop.ids.flatMap((id) => byId.get(id) ?? []) };
      // Shown until the move is in the cache, so the card does not jump back for a frame.
      setLanding({ columns: landed, move: variables });
      setDragState(null);
      // dnd-kit announces the drop after this handler: it reads where the card landed from here.
      dragRef.current = { ...current, columns: landed };
      return;
    }
    setDrag(null);
  };

  // `c` opens the quick-add of the first column, unless the person is typing.
  useEffect(() => {
    if (!canEdit) return;
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'c' || event.metaKey || event.ctrlKey || event.altKey || isTyping(event.target))
        return;
      event.preventDefault();
      setAdding(STATUSES[0] ?? null);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [canEdit]);

  const onArrowKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (drag || !event.key.startsWith('Arrow')) return;
    const card = (event.target as HTMLElement).closest<HTMLElement>('a[data-task-key]');
    const status = card?.dataset['status'] as TaskStatus | undefined;
    if (!card || !status) return;
    const index = Number(card.dataset['index']);
    if (focusNeighbour(handles.current, status, index, event.key)) event.preventDefault();
  };

  const content = (
    <>
      {/* The arrow keys only move focus between cards; every card is a link, reachable with Tab too. */}
      {counts.data?.total === 0 && (
        <div className={styles.empty}>
          <p>
            <strong>{filtered ? 'No tasks match these filters' : 'No tasks yet'}</strong>
            {filtered ? ' Clear a filter to see more.' : canEdit ? ' Add the first one to get going.' : ''}
          </p>
          {!filtered && canEdit && (
            <Button variant="primary" onClick={() => setAdding('todo')}>
              Create the first task
            </Button>
          )}
        </div>
      )}
      <div ref={boardRef} className={styles.board} onKeyDown={onArrowKey} {...handlers}>
        {STATUSES.map((status) => (
          <BoardColumn
            key={status}
            status={status}
            board={board}
            count={drag ? undefined : counts.data?.by_status[status]}
            dragTasks={shown?.[status]}
            people={people}
            canAdd={canEdit}
            kit={kit}
            adding={adding === status}
            onAddingChange={(open) => setAdding(open ? status : null)}
            handle={(handle) => {
              if (handle) handles.current.set(status, handle);
              else handles.current.delete(status);
            }}
          />
        ))}
      </div>
    </>
  );
  const dnd = kit.drag;
  if (!dnd) return content;
  return (
    <dnd.DragArea
      announcements={announcements}
      columnsNow={columnsNow}
      onDragStart={onDragStart}
      onDragOver={onDragOver}
      onDragEnd={onDragEnd}
      onDragCancel={() => setDrag(null)}
      overlay={
        drag ? (
          <TaskCard task={drag.active} slug={board.slug} projectKey={board.key} people={people} overlay />
        ) : null
      }
    >
      {content}
    </dnd.DragArea>
  );
}

/** What a refused move tells the person; the card is back where it was when this shows. */
export function moveErrorMessage(task: Task, error: unknown): string {
  if (error instanceof ApiError && error.status === 412) {
    return `Someone changed ${task.key} first — the board now shows their change.`;
  }
  return `${task.key} was not moved: ${describeError(error)}`;
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
  for (let at = STATUSES.indexOf(status) + step; at >= 0 && at < STATUSES.length; at += step) {
    const handle = handles.get(STATUSES[at] as TaskStatus);
    if (handle?.focusCard(index) || handle?.focusCard(handle.lastIndex())) return true;
  }
  return false;
}
