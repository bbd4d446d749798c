import {
  startTransition,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type DragEvent,
  type KeyboardEvent,
  type PointerEvent,
  type RefObject,
} from 'react';
import { whenQuiet } from '../../../../lib/scheduling/when-quiet.ts';
import type * as BoardDnd from './board-dnd.tsx';
import { firstCardHeights } from './column-cards.ts';
import type * as Virtual from './virtual-cards.tsx';

/**
 * What the board's first paint does without, loaded once it has shown (decision 0029): the virtualizer
 * (until then each column draws its first cards, first-cards.tsx) and, for who may move cards, dnd-kit.
 */
export interface LateBoardModules {
  cards?: typeof Virtual;
  drag?: typeof BoardDnd;
}

let virtual: Promise<typeof Virtual> | undefined;
let dnd: Promise<typeof BoardDnd> | undefined;
const loaded: { cards?: typeof Virtual; drag?: typeof BoardDnd } = {};

function loadLateBoardModules(canDrag: boolean): Promise<LateBoardModules> {
  virtual ??= import('./virtual-cards.tsx').then((module) => (loaded.cards = module));
  if (canDrag) {
    dnd ??= import('./board-dnd.tsx').then((module) => (loaded.drag = module));
    // Not needed to draw the board again, but soon: `c` opens it, and its cards show its queue.
    void import('./quick-add.tsx');
    void import('./pending-cards.tsx');
  }
  return Promise.all([virtual, canDrag ? dnd : undefined]).then(([cards, drag]) => ({ cards, drag }));
}

/** The late if it has loaded already (a board opened again): no swap then. */
function loadedKit(canDrag: boolean): LateBoardModules | undefined {
  if (!loaded.cards || (canDrag && !loaded.drag)) return undefined;
  return { cards: loaded.cards, drag: canDrag ? loaded.drag : undefined };
}

const NONE: LateBoardModules = {};

/** A press on a card before the late modules had come: it lifts the card once the late modules is here. */
type Press = { key: string } & (
  | { kind: 'key' }
  // Where the pointer went down, and where it is now: the card is lifted there and follows it.
  | {
      kind: 'pointer';
      init: PointerEventInit;
      now: { clientX: number; clientY: number };
      /** Let go before the late modules came: nothing to lift. */
      released: boolean;
    }
);

/** What the swap to the draggable board would lose: the scroll positions, the focused card. */
interface Kept {
  scrollLeft: number;
  scrollTops: number[];
  focusedKey: string | undefined;
}

const CARD = 'a[data-task-key]';
const COLUMN = '[data-column]';
const COLUMN_BODY = '[data-column-body]';
/** What dnd-kit marks its draggable cards with. */
const SORTABLE = 'aria-roledescription';

interface LateBoardModulesOptions {
  /** Whether the caller may move cards: otherwise dnd-kit is not loaded at all. */
  canDrag: boolean;
  /** Whether every column has shown its first page: the late modules loads once the board is quiet after that. */
  shown: boolean;
  /** Whether the board may be redrawn now (not while a quick-add is open: what is typed would go). */
  settled: boolean;
  board: RefObject<HTMLElement | null>;
  /** How many columns the board has: they take the late modules one at a time. */
  columns: number;
}

/**
 * The board renders without the late modules and takes it once it has loaded: when the board is quiet after
 * showing, or at once when a card is hovered, focused or pressed, or a column scrolled. It takes it in
 * steps, each its own task so that none holds a drag up: dnd-kit around the board first, then one column
 * at a time its virtualizer and sortable cards. A card pressed (mouse or Space) before then is lifted as
 * soon as its column is draggable; a touch before then does nothing (the next one drags). Returns the late modules
 * (empty until it applies), how many columns have taken it, and the board's handlers until all have.
 */
export function useLateBoardModules({ canDrag, shown, settled, board, columns }: LateBoardModulesOptions) {
  const [arrived, setArrived] = useState<LateBoardModules | undefined>(() => loadedKit(canDrag));
  const [late, setLate] = useState<LateBoardModules | undefined>(arrived);
  // Columns drawn with the late modules, from the first: all of them when the late modules was here at once.
  const [ready, setReady] = useState(arrived ? columns : 0);
  const press = useRef<Press | undefined>(undefined);
  const kept = useRef<Kept | undefined>(undefined);
  const focusedKey = useRef<string | undefined>(undefined);
  // The card focused last while the columns take the late modules, so that it takes focus again when drawn anew.
  const lastFocused = useRef<string | undefined>(undefined);
  // A viewer made a member (or the other way) takes the late modules again.
  const [lateFor, setLateFor] = useState(canDrag);
  if (lateFor !== canDrag) {
    setLateFor(canDrag);
    setArrived(loadedKit(canDrag));
  }

  const load = () => {
    if (!arrived) void loadLateBoardModules(canDrag).then(setArrived);
  };

  useEffect(() => {
    if (!shown || arrived) return;
    let cancelled = false;
    whenQuiet(
      () => {
        if (!cancelled) void loadLateBoardModules(canDrag).then(setArrived);
      },
      { quietMs: 200 },
    );
    return () => {
      cancelled = true;
    };
  }, [canDrag, shown, arrived]);

  // The board is drawn again with the late modules: keep what the person sees and where they are.
  useEffect(() => {
    if (!arrived || arrived === late || !settled) return;
    const frame = requestAnimationFrame(() => {
      kept.current = board.current ? keep(board.current) : undefined;
      // Drawn in slices, so that a drag starting meanwhile (or anything else) is not held up by it.
      startTransition(() => {
        setLate(arrived);
        setReady(0);
      });
    });
    return () => cancelAnimationFrame(frame);
  }, [arrived, late, settled, board]);

  // Then the columns, one per task.
  useEffect(() => {
    if (!late || ready >= columns) return;
    const timer = setTimeout(() => {
      // A folded column has no body: count the columns, not their bodies.
      const body = board.current?.querySelectorAll(COLUMN)[ready]?.querySelector<HTMLElement>(COLUMN_BODY);
      if (body) firstCardHeights.set(body, heightsOf(body));
      startTransition(() => setReady(ready + 1));
    });
    return () => clearTimeout(timer);
  }, [late, ready, columns, board]);

  useLayoutEffect(() => {
    const before = kept.current;
    if (!late || !board.current || !before) return;
    kept.current = undefined;
    restoreScroll(board.current, before);
    focusedKey.current = before.focusedKey;
  }, [late, board]);

  // A card held by the pointer is lifted as soon as its column is draggable (the pointer is moving on);
  // a card lifted with Space waits for every column (the arrow keys go to the next one). A focused card
  // drawn anew takes focus again at once, so that the arrow keys go on from it.
  useLayoutEffect(() => {
    const at = board.current;
    if (!late || !at) return;
    const pending = press.current;
    const draggable = pending?.kind === 'pointer' && cardAt(at, pending.key)?.hasAttribute(SORTABLE);
    // Focus went with the card drawn anew (the page has it): the card the person was on takes it again.
    const lost = focusLost() ? (lastFocused.current ?? focusedKey.current) : undefined;
    focusedKey.current = undefined;
    if (!draggable && ready < columns) {
      if (!pending && lost)
        requestAnimationFrame(() => whenCardDrawn(at, lost, (card) => resume(card, undefined)));
      return;
    }
    const key = pending?.key ?? lost;
    press.current = undefined;
    if (key) requestAnimationFrame(() => whenCardDrawn(at, key, (card) => resume(card, pending)));
  }, [late, ready, columns, board]);

  if (late && ready >= columns) return { late, ready, handlers: undefined };

  const cardOf = (target: EventTarget) => {
    const card = target instanceof Element ? target.closest<HTMLElement>(CARD) : null;
    // A card of a column that has taken the late modules already is dnd-kit's.
    return card && !card.hasAttribute(SORTABLE) ? card : undefined;
  };
  const handlers = {
    onPointerOver: (event: PointerEvent) => {
      if (cardOf(event.target)) load();
    },
    onFocus: (event: { target: EventTarget }) => {
      const card = event.target instanceof Element ? event.target.closest<HTMLElement>(CARD) : null;
      lastFocused.current = card?.dataset['taskKey'];
      if (cardOf(event.target)) load();
    },
    // Left for something else, not taken out of the page with its card: nothing to give focus back to.
    onBlur: (event: { target: EventTarget }) => {
      const left = event.target;
      queueMicrotask(() => {
        const now = document.activeElement;
        if (left instanceof Element && left.isConnected && !now?.matches(CARD))
          lastFocused.current = undefined;
      });
    },
    onWheel: load,
    onPointerDownCapture: (event: PointerEvent) => {
      const card = cardOf(event.target);
      if (!card || !event.isPrimary || event.button !== 0) return;
      load();
      if (!canDrag || event.pointerType === 'touch') return;
      const { clientX, clientY, pointerId, pointerType } = event;
      const pressed: Press = {
        key: card.dataset['taskKey'] ?? '',
        kind: 'pointer',
        init: { clientX, clientY, pointerId, pointerType, isPrimary: true, button: 0, buttons: 1 },
        now: { clientX, clientY },
        released: false,
      };
      press.current = pressed;
      const follow = (moved: globalThis.PointerEvent) => {
        pressed.now = { clientX: moved.clientX, clientY: moved.clientY };
      };
      const release = () => {
        pressed.released = true;
        if (press.current === pressed) press.current = undefined;
        window.removeEventListener('pointermove', follow, true);
        window.removeEventListener('pointerup', release, true);
        window.removeEventListener('pointercancel', release, true);
      };
      window.addEventListener('pointermove', follow, { capture: true, passive: true });
      window.addEventListener('pointerup', release, true);
      window.addEventListener('pointercancel', release, true);
    },
    onKeyDownCapture: (event: KeyboardEvent) => {
      const card = cardOf(event.target);
      if (!canDrag || event.code !== 'Space' || !card || card !== event.target) return;
      // Space would scroll the board; it lifts the card instead, as soon as it can.
      event.preventDefault();
      event.stopPropagation();
      press.current = { key: card.dataset['taskKey'] ?? '', kind: 'key' };
      load();
    },
    // A card is a link, which the browser would drag as a link while dnd-kit is not here to stop it.
    onDragStart: (event: DragEvent) => {
      if (canDrag && cardOf(event.target)) event.preventDefault();
    },
  };
  return { late: late ?? NONE, ready: late ? ready : 0, handlers };
}

/** Whether nothing has focus: what is left when the focused element has been taken out of the page. */
function focusLost(): boolean {
  return document.activeElement === null || document.activeElement === document.body;
}

function keep(board: HTMLElement): Kept {
  const focused = document.activeElement;
  const card = focused instanceof HTMLElement && board.contains(focused) ? focused.closest(CARD) : null;
  return {
    scrollLeft: board.scrollLeft,
    scrollTops: [...board.querySelectorAll<HTMLElement>(COLUMN_BODY)].map((body) => body.scrollTop),
    focusedKey: card instanceof HTMLElement ? card.dataset['taskKey'] : undefined,
  };
}

/** Scrolls the board and its columns back where they were (a new element starts at 0: nothing to lay out then). */
function restoreScroll(board: HTMLElement, before: Kept): void {
  if (before.scrollLeft !== 0) board.scrollLeft = before.scrollLeft;
  board.querySelectorAll<HTMLElement>(COLUMN_BODY).forEach((body, index) => {
    const top = before.scrollTops[index] ?? 0;
    if (top !== 0) body.scrollTop = top;
  });
}

/** The heights of the cards a column shows, in order. */
function heightsOf(body: HTMLElement): Map<string, number> {
  const heights = new Map<string, number>();
  for (const item of body.querySelectorAll<HTMLElement>('li[data-index]')) {
    const key = item.querySelector<HTMLElement>('a[data-task-key]')?.dataset['taskKey'];
    if (key) heights.set(key, item.offsetHeight);
  }
  return heights;
}

/** Gives focus back to the card, and lifts it if it was pressed: dnd-kit's sensors take the press as if new. */
function resume(card: HTMLElement, pending: Press | undefined): void {
  card.focus({ preventScroll: true });
  if (pending?.kind === 'key') {
    card.dispatchEvent(
      new window.KeyboardEvent('keydown', { key: ' ', code: 'Space', bubbles: true, cancelable: true }),
    );
  } else if (pending?.kind === 'pointer' && !pending.released) {
    card.dispatchEvent(
      new window.PointerEvent('pointerdown', { ...pending.init, bubbles: true, cancelable: true }),
    );
    // dnd-kit listens for the pointer's moves from the press on: it is told where the pointer went since.
    card.ownerDocument.dispatchEvent(
      new window.PointerEvent('pointermove', {
        ...pending.init,
        ...pending.now,
        bubbles: true,
        cancelable: true,
      }),
    );
  }
}

function cardAt(board: HTMLElement, key: string): HTMLElement | null {
  return board.querySelector<HTMLElement>(`${CARD}[data-task-key="${CSS.escape(key)}"]`);
}

/** Runs `then` with the card once the column's virtualizer has drawn it again (a frame or two). */
function whenCardDrawn(board: HTMLElement, key: string, then: (card: HTMLElement) => void, attempts = 5) {
  const card = cardAt(board, key);
  if (card) then(card);
  else if (attempts > 0) requestAnimationFrame(() => whenCardDrawn(board, key, then, attempts - 1));
}
