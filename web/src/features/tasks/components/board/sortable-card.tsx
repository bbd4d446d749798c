import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { Task } from '../../api/list-tasks.ts';
import type { BoardPeople } from './board-people.ts';
import { TaskCard } from './task-card.tsx';

export interface CardData {
  task: Task;
}

interface SortableCardProps {
  task: Task;
  index: number;
  slug: string;
  projectKey: string;
  people: BoardPeople;
}

/** A card that can be picked up (pointer, touch, or Space on the focused card); only for who may move it. */
export function SortableCard({ task, index, slug, projectKey, people }: SortableCardProps) {
  const { setNodeRef, attributes, listeners, transform, transition, isDragging } = useSortable({
    id: task.id,
    data: { task } satisfies CardData,
  });
  // The card stays a link: dnd-kit's role="button" would hide that Enter opens it.
  const { role: _role, tabIndex: _tabIndex, ...aria } = attributes;
  return (
    <TaskCard
      ref={setNodeRef}
      task={task}
      slug={slug}
      projectKey={projectKey}
      people={people}
      dragging={isDragging}
      data-status={task.status}
      data-index={index}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      {...aria}
      {...listeners}
    />
  );
}
