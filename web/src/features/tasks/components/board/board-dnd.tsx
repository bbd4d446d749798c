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
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type DragOverEvent,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { useCallback, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import { STATUSES, type TaskStatus } from '../task-meta/status.tsx';
import type { Columns } from './drag-columns.ts';

/**
 * Everything of the board that needs dnd-kit, loaded after the board has shown (drag-kit.ts): the board
 * and its cards render the same DOM without it, and become draggable when it is here (decision 0028).
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

const INSTRUCTIONS =
  'To move this task, press Space. Use the arrow keys to move it, Space again to drop it, or Escape to cancel. Press Enter to open it.';

interface DragAreaProps {
  announcements: Announcements;
  /** The columns as the drag has rearranged them so far (read by the arrow keys during a keyboard drag). */
  columnsNow: () => Columns | undefined;
  onDragStart: (event: DragStartEvent) => void;
  onDragOver: (event: DragOverEvent) => void;
  onDragEnd: (event: DragEndEvent) => void;
  onDragCancel: () => void;
  /** The copy of the dragged card that follows the pointer. */
  overlay: ReactNode;
  children: ReactNode;
}

/** The board's drag and drop: pointer, touch and keyboard, announced in words. */
export function DragArea({ announcements, columnsNow, overlay, children, ...handlers }: DragAreaProps) {
  // Up and down within a column as dnd-kit's sortable does; left and right straight to the next column, brought
  // into the middle of the board first (dnd-kit would otherwise only scroll the board on the first press).
  const keyboardCoordinates = useCallback<KeyboardCoordinateGetter>(
    (event, args) => {
      const step = event.code === 'ArrowRight' ? 1 : event.code === 'ArrowLeft' ? -1 : 0;
      if (step === 0) return sortableKeyboardCoordinates(event, args);
      event.preventDefault();
      const { active, collisionRect, droppableContainers } = args.context;
      const columns = columnsNow();
      if (!active || !collisionRect || !columns) return undefined;
      const from = STATUSES.findIndex((status) => columns[status].some((task) => task.id === active.id));
      const target = STATUSES[from + step];
      const node = target ? droppableContainers.get(`column:${target}`)?.node.current : null;
      if (!node) return undefined;
      node.scrollIntoView({ inline: 'center', block: 'nearest' });
      const rect = node.getBoundingClientRect();
      const top = Math.min(Math.max(collisionRect.top, rect.top + 40), rect.bottom - collisionRect.height);
      return { x: rect.left + (rect.width - collisionRect.width) / 2, y: top };
    },
    [columnsNow],
  );

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 8 } }),
    useSensor(KeyboardSensor, { coordinateGetter: keyboardCoordinates, keyboardCodes: KEYBOARD_CODES }),
  );

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={collisions}
      accessibility={{ announcements, screenReaderInstructions: { draggable: INSTRUCTIONS } }}
      {...handlers}
    >
      {children}
      <DragOverlay>{overlay}</DragOverlay>
    </DndContext>
  );
}

/** A column that takes cards dropped on its empty space. */
export function DroppableColumn({
  status,
  ...section
}: { status: TaskStatus } & ComponentPropsWithoutRef<'section'>) {
  const { setNodeRef } = useDroppable({ id: `column:${status}`, data: { status } });
  return <section ref={setNodeRef} {...section} />;
}

/** A column's cards, in the order a drag within it shows. */
export function SortableList({ id, items, children }: { id: string; items: string[]; children: ReactNode }) {
  return (
    <SortableContext id={id} items={items} strategy={verticalListSortingStrategy}>
      {children}
    </SortableContext>
  );
}
