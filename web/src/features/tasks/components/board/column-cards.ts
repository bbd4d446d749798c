import type { ReactNode, Ref } from 'react';
import type { Task } from '../../api/list-tasks.ts';

/** A card's height before it is measured, and the gap between cards. */
export const ESTIMATED_CARD_HEIGHT = 64;
export const CARD_GAP = 8;
/** Cards drawn beyond those in view (above and below). */
export const OVERSCAN = 4;

export interface ColumnHandle {
  /** Brings the card at `index` into view and focuses it; false when there is no such card. */
  focusCard: (index: number) => boolean;
  /** The index of the column's last card read so far (-1 when it has none). */
  lastIndex: () => number;
}

/**
 * The heights of a column's first cards (by task key), read from its scrolling element just before the
 * virtualizer takes over (late-board-modules.ts): its first layout then places them where they are, and draws no
 * more of them than fit, without measuring and drawing again within the same task. By task, not by place:
 * the virtualizer keeps no measure that equals its estimate, so a height known by place would go on being
 * used for whichever card comes to that place after a move.
 */
export const firstCardHeights = new WeakMap<HTMLElement, ReadonlyMap<string, number>>();

/** What draws a column's cards: the first ones at once (first-cards.tsx), then the virtualizer's. */
export interface ColumnCardsProps {
  tasks: readonly Task[];
  headingId: string;
  /** The column's scrolling element, once it is in the page (state, so that the virtualizer sees it come). */
  scroll: HTMLDivElement | null;
  card: (task: Task) => ReactNode;
  /** Reads the next page when the last card read is close to coming into view. */
  more: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };
  handle: Ref<ColumnHandle>;
}

/** Focuses the card at `index` once it is drawn (a frame or two after scrolling to it). */
export function focusWhenDrawn(column: HTMLElement | null, index: number, attempts = 5): void {
  const card = column?.querySelector<HTMLElement>(`li[data-index="${index}"] a[data-task-key]`);
  if (card) {
    card.focus();
    return;
  }
  if (attempts > 0) requestAnimationFrame(() => focusWhenDrawn(column, index, attempts - 1));
}
