import { lazy, memo, Suspense, useState, type Ref } from 'react';
import { Button } from '../../../../components/ui/button.tsx';
import { Spinner } from '../../../../components/ui/spinner.tsx';
import { describeError } from '../../../../lib/api/api-error.ts';
import { columnListFilters, tasksOf, useTaskList, type Task } from '../../api/list-tasks.ts';
import type { TaskListFilters } from '../../api/query-keys.ts';
import { STATUS_LABELS, StatusIcon, type TaskStatus } from '../task-meta/status.tsx';
import type { LateBoardModules } from './late-board-modules.ts';
import type { BoardPeople } from './board-people.ts';
import styles from './board.module.css';
import type { ColumnHandle } from './column-cards.ts';
import { FirstCards } from './first-cards.tsx';
import { TaskCard } from './task-card.tsx';

export type { ColumnHandle } from './column-cards.ts';

// Opened by a click or `c`; loaded with the rest of the board after it has shown (late-board-modules.ts).
const QuickAdd = lazy(() => import('./quick-add.tsx').then((module) => ({ default: module.QuickAdd })));
// The quick-add's titles not yet saved; loaded with it.
const PendingCards = lazy(() =>
  import('./pending-cards.tsx').then((module) => ({ default: module.PendingCards })),
);

interface BoardColumnProps {
  status: TaskStatus;
  board: Omit<TaskListFilters, 'status' | 'sort' | 'limit'>;
  /** The exact count from countProjectTasks, when it has come. */
  count: number | undefined;
  /** The column's cards while a drag rearranges them; otherwise the column shows what it read. */
  dragTasks: readonly Task[] | undefined;
  people: BoardPeople;
  canAdd: boolean;
  /** The virtualizer and, for who may move cards, dnd-kit, once loaded after the board has shown. */
  late: LateBoardModules;
  adding: boolean;
  /** Whether to show the quick-add's titles not saved yet (once its code is loaded or loading). */
  showsQueue: boolean;
  onAddingChange: (status: TaskStatus, adding: boolean) => void;
  /** Folded to a narrow strip with its name and count; its cards are not read until it opens. */
  collapsed: boolean;
  onCollapsedChange: (status: TaskStatus, collapsed: boolean) => void;
  handle: Ref<ColumnHandle>;
}

/**
 * One status of the board: its name and count, a quick-add, and its cards, read and drawn as they scroll into
 * view. Memoized: a card moved live between two columns draws those two again, not the other four.
 */
export const BoardColumn = memo(function BoardColumn(props: BoardColumnProps) {
  const {
    status,
    board,
    count,
    dragTasks,
    people,
    canAdd,
    late,
    adding,
    showsQueue,
    onAddingChange,
    handle,
  } = props;
  const { collapsed, onCollapsedChange } = props;
  const list = useTaskList(columnListFilters(board, status), { enabled: !collapsed });
  const tasks = dragTasks ?? tasksOf(list.data);
  // State, not a ref: the cards below it are drawn before a ref to it would be set.
  const [scroll, setScroll] = useState<HTMLDivElement | null>(null);
  const [section, setSection] = useState<HTMLElement | null>(null);
  const label = STATUS_LABELS[status];
  const headingId = `column-${status}-heading`;
  const shownCount = count ?? (list.isSuccess && !list.hasNextPage ? tasks.length : '…');

  const drag = late.drag;
  const dropTarget = drag && <drag.ColumnDropTarget status={status} node={section} />;
  if (collapsed) {
    return (
      <section
        ref={setSection}
        className={`${styles.column} ${styles.collapsed}`}
        aria-labelledby={headingId}
        data-column={status}
        data-collapsed
      >
        {dropTarget}
        <h2 id={headingId} className={styles.collapsedTitle}>
          <button
            type="button"
            className={styles.collapsedButton}
            aria-expanded={false}
            title={`Show ${label}`}
            onClick={() => onCollapsedChange(status, false)}
          >
            <StatusIcon status={status} />
            <span className={styles.collapsedName}>{label}</span>
            <span className={styles.count} data-testid={`count-${status}`}>
              {shownCount}
            </span>
          </button>
        </h2>
      </section>
    );
  }
  const Cards = late.cards?.VirtualCards ?? FirstCards;
  const cards = (
    <Cards
      tasks={tasks}
      headingId={headingId}
      scroll={scroll}
      more={list}
      handle={handle}
      card={(task) => {
        const card = { task, slug: board.slug, projectKey: board.key, people };
        return drag ? <drag.SortableCard {...card} /> : <TaskCard {...card} data-status={task.status} />;
      }}
    />
  );

  const inner = (
    <>
      <header className={styles.columnHeader}>
        <h2 id={headingId} className={styles.columnTitle}>
          <StatusIcon status={status} />
          {label}
          <span className={styles.count} data-testid={`count-${status}`}>
            {shownCount}
          </span>
        </h2>
        <span className={styles.columnActions}>
          <button
            type="button"
            className={styles.iconButton}
            aria-label={`Collapse ${label}`}
            aria-expanded={true}
            title={`Collapse ${label}`}
            onClick={() => onCollapsedChange(status, true)}
          >
            <svg viewBox="0 0 14 14" width="14" height="14" aria-hidden="true">
              <path
                d="M8.5 3.5 5 7l3.5 3.5"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.5"
                strokeLinecap="round"
                strokeLinejoin="round"
              />
            </svg>
          </button>
          {canAdd && (
            <button
              type="button"
              className={styles.iconButton}
              aria-label={`Add a task to ${label}`}
              onClick={() => onAddingChange(status, true)}
            >
              <svg viewBox="0 0 14 14" width="14" height="14" aria-hidden="true">
                <path d="M7 2.5v9M2.5 7h9" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
              </svg>
            </button>
          )}
        </span>
      </header>
      {adding && canAdd && (
        <Suspense fallback={null}>
          <QuickAdd
            slug={board.slug}
            projectKey={board.key}
            status={status}
            tasks={tasks}
            onClose={() => onAddingChange(status, false)}
          />
        </Suspense>
      )}
      <div ref={setScroll} className={styles.columnBody} data-column-body>
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
            {drag ? (
              <drag.SortableList id={status} items={tasks.map((task) => task.id)}>
                {cards}
              </drag.SortableList>
            ) : (
              cards
            )}
            {canAdd && showsQueue && (
              <Suspense fallback={null}>
                <PendingCards slug={board.slug} projectKey={board.key} status={status} tasks={tasks} />
              </Suspense>
            )}
            {list.isFetchingNextPage && (
              <p className={styles.loadingMore}>
                <Spinner /> Loading more…
              </p>
            )}
          </>
        )}
      </div>
    </>
  );
  return (
    <section ref={setSection} className={styles.column} aria-labelledby={headingId} data-column={status}>
      {dropTarget}
      {inner}
    </section>
  );
});

function ColumnSkeleton() {
  return (
    <div className={styles.skeleton} aria-hidden="true">
      {[0, 1, 2].map((row) => (
        <div key={row} className={styles.skeletonCard} />
      ))}
    </div>
  );
}
