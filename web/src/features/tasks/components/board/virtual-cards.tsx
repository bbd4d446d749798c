import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useImperativeHandle } from 'react';
import styles from './board.module.css';
import {
  CARD_GAP,
  ESTIMATED_CARD_HEIGHT,
  firstCardHeights,
  focusWhenDrawn,
  OVERSCAN,
  type ColumnCardsProps,
} from './column-cards.ts';

/** Ask for the next page when the last card read is this close to coming into view. */
const PREFETCH_DISTANCE = 10;

/**
 * A column's cards, drawn as they scroll into view (TanStack Virtual), paged as the last ones come near.
 * Loaded after the board has shown (late-board-modules.ts), when it takes over from the first cards.
 */
export function VirtualCards({ tasks, headingId, scroll, card, more, handle }: ColumnCardsProps) {
  const known = scroll ? firstCardHeights.get(scroll) : undefined;
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual measures on every render by design
  const virtualizer = useVirtualizer({
    count: tasks.length,
    getScrollElement: () => scroll,
    estimateSize: (index) => known?.get(tasks[index]?.key ?? '') ?? ESTIMATED_CARD_HEIGHT,
    // Its column is in the page already (it takes over from the first cards): its size is known.
    initialRect: scroll ? { width: scroll.clientWidth, height: scroll.clientHeight } : undefined,
    initialOffset: scroll?.scrollTop ?? 0,
    gap: CARD_GAP,
    overscan: OVERSCAN,
    getItemKey: (index) => tasks[index]?.id ?? index,
  });
  const items = virtualizer.getVirtualItems();
  const lastShown = items.at(-1)?.index ?? -1;

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = more;
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
        focusWhenDrawn(scroll, index);
        return true;
      },
      lastIndex: () => tasks.length - 1,
    }),
    [tasks.length, virtualizer, scroll],
  );

  return (
    <ol
      className={styles.cards}
      aria-labelledby={headingId}
      style={{ height: Math.max(virtualizer.getTotalSize(), 48) }}
    >
      {items.map((item) => {
        const task = tasks[item.index];
        if (!task) return null;
        return (
          <li
            key={item.key}
            ref={virtualizer.measureElement}
            data-index={item.index}
            className={styles.slot}
            style={{ transform: `translateY(${item.start}px)` }}
          >
            {card(task)}
          </li>
        );
      })}
    </ol>
  );
}
