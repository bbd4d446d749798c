import {
  closestCorners,
  DndContext,
  DragOverlay,
  KeyboardSensor,
  pointerWithin,
  PointerSensor,
  TouchSensor,
  useDroppable,
  useSensor,
  useSensors,
  type Active,
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type DragOverEvent,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { toast } from '../../../../components/ui/toast.ts';
import { columnListFilters, tasksOf, type Task, type TaskPages } from '../../api/list-tasks.ts';
import { useMoveTask, type TaskMove } from '../../api/move-task.ts';
import { taskKeys, type TaskListFilters } from '../../api/query-keys.ts';
import { STATUS_LABELS, type TaskStatus } from '../task-meta/status.tsx';
import { TASK_STATUSES } from '@shared/vocabulary/spec-values.ts';
import type { BoardPeople } from './board-people.ts';
import { dragOver, dropOf, type Columns } from './drag-columns.ts';
import type { DragView } from './drag-view.ts';
import { moveErrorMessage } from './move-error.ts';
import type { CardData } from './sortable-card.tsx';
import { TaskCard } from './task-card.tsx';

/**
 * Everything of the board that needs dnd-kit, loaded after the board has shown (late-board-modules.ts): the board
 * and its cards render the same DOM without it, and become draggable when it is here (decision 0029).
 */
export { SortableCard } from './sortable-card.tsx';

/**
 * What the dragged card is over: under the pointer, a card before its column (so an empty column or the
 * space below a column's cards takes it too); with the keyboard, which has no pointer, the nearest.
 */
const collisions: CollisionDetection = (args) => {
  const underPointer = pointerWithin(args);
  if (underPointer.length === 0) return closestCorners(args);
  const cards = underPointer.filter((collision) => !String(collision.id).startsWith('column:'));
  return cards.length > 0 ? cards : underPointer;
};

// Space lifts and drops; Enter stays the link's (it opens the task).
const KEYBOARD_CODES = { start: ['Space'], cancel: ['Escape'], end: ['Space'] };
const POINTER_OPTIONS = { activationConstraint: { distance: 6 } };
const TOUCH_OPTIONS = { activationConstraint: { delay: 200, tolerance: 8 } };

const INSTRUCTIONS =
  'To move this task, press Space. Use the arrow keys to move it, Space again to drop it, or Escape to cancel. Press Enter to open it.';

interface Drag {
  active: Task;
  columns: Columns;
}

interface DragAreaProps {
  board: Omit<TaskListFilters, 'status' | 'sort' | 'limit'>;
  people: BoardPeople;
  /** The exact count of each column, when it has come (the announcements say "position 3 of 40"). */
  counts: Partial<Record<TaskStatus, number>> | undefined;
  /** The board, drawn with the columns as the drag shows them. */
  children: (view: DragView) => ReactNode;
}

/**
 * The board's drag and drop (pointer, touch, keyboard) within and across columns, announced in words: a
 * move is applied at once, sent with `If-Match`, and rolled back with a toast that says why.
 */
export function DragArea({ board, people, counts, children }: DragAreaProps) {
  const queryClient = useQueryClient();
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

  const columnOf = useCallback(
    (status: TaskStatus): Task[] =>
      tasksOf(queryClient.getQueryData<TaskPages>(taskKeys.list(columnListFilters(board, status)))),
    [queryClient, board],
  );

  const snapshot = useCallback(
    () =>
      Object.fromEntries(TASK_STATUSES.map((status) => [status, columnOf(status)])) as Record<
        TaskStatus,
        Task[]
      >,
    [columnOf],
  );

  // Read when dnd-kit announces, which may be before this component has seen the drag's latest state.
  const announcements = useMemo<Announcements>(() => {
    const where = (id: string | number) => {
      const columns = dragRef.current?.columns ?? snapshot();
      const status = TASK_STATUSES.find((s) => columns[s].some((task) => task.id === id));
      if (!status) return 'the board';
      const index = columns[status].findIndex((task) => task.id === id);
      const counted = counts?.[status];
      const total =
        counted === undefined ? columns[status].length : Math.max(counted, columns[status].length);
      return `${STATUS_LABELS[status]}, position ${index + 1} of ${total}`;
    };
    // The card's own data is gone once the virtualizer has unmounted it (dragged far from its column).
    const keyOf = (active: Active) =>
      dragRef.current?.active.key ??
      (active.data.current as Partial<CardData> | undefined)?.task?.key ??
      'the task';
    return {
      onDragStart: ({ active }) => `Picked up ${keyOf(active)}. It is in ${where(active.id)}.`,
      onDragOver: ({ active }) => `${keyOf(active)} is over ${where(active.id)}.`,
      onDragEnd: ({ active }) => `Moved ${keyOf(active)} to ${where(active.id)}.`,
      onDragCancel: ({ active }) => `Put ${keyOf(active)} back where it was.`,
    };
  }, [counts, snapshot]);

  const onDragStart = ({ active }: DragStartEvent) => {
    const columns = snapshot();
    const task = TASK_STATUSES.flatMap((status) => columns[status]).find((t) => t.id === active.id);
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

  // Up and down within a column as dnd-kit's sortable does; left and right straight to the next column, brought
  // into the middle of the board first (dnd-kit would otherwise only scroll the board on the first press).
  const keyboardCoordinates = useCallback<KeyboardCoordinateGetter>((event, args) => {
    const step = event.code === 'ArrowRight' ? 1 : event.code === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return sortableKeyboardCoordinates(event, args);
    event.preventDefault();
    const { active, collisionRect, droppableContainers } = args.context;
    const columns = dragRef.current?.columns;
    if (!active || !collisionRect || !columns) return undefined;
    const from = TASK_STATUSES.findIndex((status) => columns[status].some((task) => task.id === active.id));
    const target = TASK_STATUSES[from + step];
    const node = target ? droppableContainers.get(`column:${target}`)?.node.current : null;
    if (!node) return undefined;
    node.scrollIntoView({ inline: 'center', block: 'nearest' });
    const rect = node.getBoundingClientRect();
    const top = Math.min(Math.max(collisionRect.top, rect.top + 40), rect.bottom - collisionRect.height);
    return { x: rect.left + (rect.width - collisionRect.width) / 2, y: top };
  }, []);

  // The same options every render: new ones would give every card new listeners, and draw them all again.
  const keyboardOptions = useMemo(
    () => ({ coordinateGetter: keyboardCoordinates, keyboardCodes: KEYBOARD_CODES }),
    [keyboardCoordinates],
  );
  const sensors = useSensors(
    useSensor(PointerSensor, POINTER_OPTIONS),
    useSensor(TouchSensor, TOUCH_OPTIONS),
    useSensor(KeyboardSensor, keyboardOptions),
  );

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={collisions}
      accessibility={{ announcements, screenReaderInstructions: { draggable: INSTRUCTIONS } }}
      onDragStart={onDragStart}
      onDragOver={onDragOver}
      onDragEnd={onDragEnd}
      onDragCancel={() => setDrag(null)}
    >
      {children({ columns: shown, dragging: drag !== null })}
      <DragOverlay>
        {drag ? (
          <TaskCard task={drag.active} slug={board.slug} projectKey={board.key} people={people} overlay />
        ) : null}
      </DragOverlay>
    </DndContext>
  );
}

/**
 * Makes a column (the element given) take cards dropped on its empty space. Renders nothing: the column
 * stays the element it was before dnd-kit came, so taking the kit does not draw it again.
 */
export function ColumnDropTarget({ status, node }: { status: TaskStatus; node: HTMLElement | null }) {
  const { setNodeRef } = useDroppable({ id: `column:${status}`, data: { status } });
  useLayoutEffect(() => setNodeRef(node), [node, setNodeRef]);
  return null;
}

/** A column's cards, in the order a drag within it shows. */
export function SortableList({ id, items, children }: { id: string; items: string[]; children: ReactNode }) {
  return (
    <SortableContext id={id} items={items} strategy={verticalListSortingStrategy}>
      {children}
    </SortableContext>
  );
}
