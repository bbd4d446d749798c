import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import { Button } from '../../../../components/ui/button.tsx';
import { Spinner } from '../../../../components/ui/spinner.tsx';
import { describeError } from '../../../../lib/api/api-error.ts';
import { columnListFilters, tasksOf, useTaskList, type Task } from '../../api/list-tasks.ts';
import type { TaskListFilters } from '../../api/query-keys.ts';
import { STATUS_LABELS, StatusIcon, type TaskStatus } from '../task-meta/status.tsx';
import type { BoardPeople } from './board-people.ts';
import styles from './board.module.css';
import { QuickAdd } from './quick-add.tsx';
import type { DragKit } from './drag-kit.ts';
import { TaskCard } from './task-card.tsx';

/** A card's height before it is measured, and the gap between cards. */
const ESTIMATED_CARD_HEIGHT = 92;
const CARD_GAP = 8;
/** Ask for the next page when the last card read is this close to coming into view. */
const PREFETCH_DISTANCE = 10;

export interface ColumnHandle {
  /** Brings the card at `index` into view and focuses it; false when there is no such card. */
  focusCard: (index: number) => boolean;
  /** The index of the column's last card read so far (-1 when it has none). */
  lastIndex: () => number;
}

interface BoardColumnProps {
  status: TaskStatus;
  board: Omit<TaskListFilters, 'status' | 'sort' | 'limit'>;
  /** The exact count from countProjectTasks, when it has come. */
  count: number | undefined;
  /** The column's cards while a drag rearranges them; otherwise the column shows what it read. */
  dragTasks: readonly Task[] | undefined;
  people: BoardPeople;
  canAdd: boolean;
  /** dnd-kit and what uses it, once loaded, when the caller may move cards: the column's cards drag then. */
  kit: DragKit | undefined;
  adding: boolean;
  onAddingChange: (adding: boolean) => void;
  handle: Ref<ColumnHandle>;
}

/** One status of the board: its name and count, a quick-add, and its cards, read and drawn as they scroll into view. */
export function BoardColumn(props: BoardColumnProps) {
  const { status, board, count, dragTasks, people, canAdd, kit, adding, onAddingChange, handle } = props;
  const list = useTaskList(columnListFilters(board, status));
  const tasks = dragTasks ?? tasksOf(list.data);
  const scrollRef = useRef<HTMLDivElement>(null);
  const label = STATUS_LABELS[status];
  const headingId = `column-${status}-heading`;

  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual measures on every render by design
  const virtualizer = useVirtualizer({
    count: tasks.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_CARD_HEIGHT,
    gap: CARD_GAP,
    overscan: 4,
    getItemKey: (index) => tasks[index]?.id ?? index,
  });
  const items = virtualizer.getVirtualItems();
  const lastShown = items.at(-1)?.index ?? -1;

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastShown >= tasks.length - PREFETCH_DISTANCE) {
      void fetchNextPage();
    }
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, lastShown, tasks.length]);

  useImperativeHandle(
    handle,
    () => ({
      focusCard: (index) => {
        if (index < 0 || index >= tasks.length) return false;
        virtualizer.scrollToIndex(index, { align: 'auto' });
        focusWhenDrawn(scrollRef.current, index);
        return true;
      },
      lastIndex: () => tasks.length - 1,
    }),
    [tasks.length, virtualizer],
  );

  const cards = (
    <ol
      className={styles.cards}
      aria-labelledby={headingId}
      style={{ height: Math.max(virtualizer.getTotalSize(), 48) }}
    >
      {items.map((item) => {
        const task = tasks[item.index];
        if (!task) return null;
        const card = { task, slug: board.slug, projectKey: board.key, people };
        return (
          <li
            key={item.key}
            ref={virtualizer.measureElement}
            data-index={item.index}
            className={styles.slot}
            style={{ transform: `translateY(${item.start}px)` }}
          >
            {kit ? (
              <kit.SortableCard {...card} index={item.index} />
            ) : (
              <TaskCard {...card} data-status={task.status} data-index={item.index} />
            )}
          </li>
        );
      })}
    </ol>
  );

  const inner = (
    <>
      <header className={styles.columnHeader}>
        <h2 id={headingId} className={styles.columnTitle}>
          <StatusIcon status={status} />
          {label}
          <span className={styles.count} data-testid={`count-${status}`}>
            {count ?? (list.isSuccess && !list.hasNextPage ? tasks.length : '…')}
          </span>
        </h2>
        {canAdd && (
          <button
            type="button"
            className={styles.iconButton}
            aria-label={`Add a task to ${label}`}
            onClick={() => onAddingChange(true)}
          >
            <svg viewBox="0 0 14 14" width="14" height="14" aria-hidden="true">
              <path d="M7 2.5v9M2.5 7h9" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
            </svg>
          </button>
        )}
      </header>
      {adding && canAdd && (
        <QuickAdd
          slug={board.slug}
          projectKey={board.key}
          status={status}
          onClose={() => onAddingChange(false)}
        />
      )}
      <div ref={scrollRef} className={styles.columnBody} data-column-body>
        {list.isPending ? (
          <ColumnSkeleton />
        ) : list.isError && tasks.length === 0 ? (
          <div className={styles.columnError} role="alert">
            <p>{describeError(list.error)}</p>
            <Button variant="link" onClick={() => void list.refetch()}>
              Retry
            </Button>
          </div>
        ) : (
          <>
            {kit ? (
              <kit.SortableList id={status} items={tasks.map((task) => task.id)}>
                {cards}
              </kit.SortableList>
            ) : (
              cards
            )}
            {isFetchingNextPage && (
              <p className={styles.loadingMore}>
                <Spinner /> Loading more…
              </p>
            )}
          </>
        )}
      </div>
    </>
  );
  const section = { className: styles.column, 'aria-labelledby': headingId, 'data-column': status };
  return kit ? (
    <kit.DroppableColumn status={status} {...section}>
      {inner}
    </kit.DroppableColumn>
  ) : (
    <section {...section}>{inner}</section>
  );
}

function ColumnSkeleton() {
  return (
    <div className={styles.skeleton} aria-hidden="true">
      {[0, 1, 2].map((row) => (
        <div key={row} className={styles.skeletonCard} />
      ))}
    </div>
  );
}

/** Focuses the card at `index` once the virtualizer has drawn it (a frame or two after scrolling to it). */
function focusWhenDrawn(column: HTMLElement | null, index: number, attempts = 5): void {
  const card = column?.querySelector<HTMLElement>(`a[data-index="${index}"]`);
  if (card) {
    card.focus();
    return;
  }
  if (attempts > 0) requestAnimationFrame(() => focusWhenDrawn(column, index, attempts - 1));
}
