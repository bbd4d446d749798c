import { useImperativeHandle } from 'react';
import styles from './board.module.css';
import { ESTIMATED_CARD_HEIGHT, focusWhenDrawn, OVERSCAN, type ColumnCardsProps } from './column-cards.ts';

/**
 * A column's first cards, as many as a window's height can show (and the virtualizer's overscan), drawn
 * in the flow of the page without measuring them: the board's first paint, before the virtualizer has
 * loaded (late-board-modules.ts) and takes over with the same cards at the same places.
 */
export function FirstCards({ tasks, headingId, scroll, card, handle }: ColumnCardsProps) {
  const shown = tasks.slice(0, Math.ceil(window.innerHeight / ESTIMATED_CARD_HEIGHT) + OVERSCAN);
  useImperativeHandle(
    handle,
    () => ({
      focusCard: (index) => {
        if (index < 0 || index >= shown.length) return false;
        focusWhenDrawn(scroll, index);
        return true;
      },
      lastIndex: () => shown.length - 1,
    }),
    [shown.length, scroll],
  );
  return (
    <ol className={`${styles.cards} ${styles.flow}`} aria-labelledby={headingId}>
      {shown.map((task, index) => (
        <li key={task.id} data-index={index}>
          {card(task)}
        </li>
      ))}
    </ol>
  );
}
