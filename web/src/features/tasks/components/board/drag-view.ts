import type { Columns } from './drag-columns.ts';

/** What a drag shows the board: the columns as it rearranges them, while it lasts and until it lands. */
export interface DragView {
  columns: Columns | undefined;
  /** A card is being dragged (the columns' counts wait for the drop). */
  dragging: boolean;
}
