import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { memo, useCallback, useLayoutEffect, useRef } from 'react';
import type { Task } from '../../api/list-tasks.ts';
import type { BoardPeople } from './board-people.ts';
import { TaskCard } from './task-card.tsx';

export interface CardData {
  task: Task;
}

interface SortableCardProps {
  task: Task;
  slug: string;
  projectKey: string;
  people: BoardPeople;
}

/**
 * A card that can be picked up (pointer, touch, or Space on the focused card); only for who may move it.
 * Memoized: its column draws it again only when its task changed (dnd-kit still does, when a drag needs it).
 */
export const SortableCard = memo(function SortableCard({
  task,
  slug,
  projectKey,
  people,
}: SortableCardProps) {
  const { setNodeRef, attributes, listeners, transform, transition, isDragging } = useSortable({
    id: task.id,
    data: { task } satisfies CardData,
  });
  // Set on the element, not drawn: a drag moves most cards, and gives every one a transition, while the
  // card itself (a costly link) stays the same and is not drawn again (TaskCard is memoized).
  const translate = CSS.Translate.toString(transform) ?? '';
  const element = useRef<HTMLAnchorElement | null>(null);
  const ref = useCallback(
    (card: HTMLAnchorElement | null) => {
      element.current = card;
      setNodeRef(card);
    },
    [setNodeRef],
  );
  useLayoutEffect(() => {
    const card = element.current;
    if (!card) return;
    card.style.transform = translate;
    card.style.transition = transition ?? '';
  }, [translate, transition]);
  // The card stays a link: dnd-kit's role="button" would hide that Enter opens it.
  const { role: _role, tabIndex: _tabIndex, ...aria } = attributes;
  return (
    <TaskCard
      ref={ref}
      task={task}
      slug={slug}
      projectKey={projectKey}
      people={people}
      dragging={isDragging}
      data-status={task.status}
      {...aria}
      {...listeners}
    />
  );
});
