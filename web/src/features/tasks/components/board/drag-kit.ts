import {
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

/** The board's drag and drop (dnd-kit and what uses it), loaded after the board has shown (decision 0028). */
export type DragKit = typeof BoardDnd;

let loading: Promise<DragKit> | undefined;
let loaded: DragKit | undefined;

export function loadDragKit(): Promise<DragKit> {
  loading ??= import('./board-dnd.tsx').then((kit) => (loaded = kit));
  return loading;
}

/** A press on a card before the kit had come: it lifts the card once the kit is here. */
type Press = { key: string } & ({ kind: 'key' } | { kind: 'pointer'; init: PointerEventInit });

/** What the swap to the draggable board would lose: the scroll positions, the focused card. */
interface Kept {
  scrollLeft: number;
  scrollTops: number[];
  focusedKey: string | undefined;
}

const CARD = 'a[data-task-key]';
const COLUMN_BODY = '[data-column-body]';

interface DragKitOptions {
  /** Whether the caller may move cards: otherwise the kit is not loaded at all. */
  enabled: boolean;
  /** Whether every column has shown its first page: the kit loads once the board is quiet after that. */
  shown: boolean;
  /** Whether the board may be redrawn now (not while a quick-add is open: what is typed would go). */
  settled: boolean;
  board: RefObject<HTMLElement | null>;
}

/**
 * The board renders without dnd-kit and becomes draggable once it has loaded: when the board is quiet after
 * showing, or at once when a card is hovered, focused or pressed. A card pressed (mouse or Space) before
 * then is lifted as soon as the kit is here; a touch before then does nothing (the next one drags).
 * Returns the kit once it applies, and the board's handlers until then.
 */
export function useDragKit({ enabled, shown, settled, board }: DragKitOptions) {
  const [arrived, setArrived] = useState<DragKit | undefined>(loaded);
  const [kit, setKit] = useState<DragKit | undefined>(() => (enabled ? loaded : undefined));
  const press = useRef<Press | undefined>(undefined);
  const kept = useRef<Kept | undefined>(undefined);

  const load = () => {
    if (!arrived) void loadDragKit().then(setArrived);
  };

  useEffect(() => {
    if (!enabled || !shown || arrived) return;
    let cancelled = false;
    whenQuiet(
      () => {
        if (!cancelled) void loadDragKit().then(setArrived);
      },
      { quietMs: 200 },
    );
    return () => {
      cancelled = true;
    };
  }, [enabled, shown, arrived]);

  // The board is drawn again under dnd-kit's context: keep what the person sees and where they are.
  useEffect(() => {
    if (!enabled || !arrived || kit || !settled) return;
    const frame = requestAnimationFrame(() => {
      kept.current = board.current ? keep(board.current) : undefined;
      setKit(arrived);
    });
    return () => cancelAnimationFrame(frame);
  }, [enabled, arrived, kit, settled, board]);

  useLayoutEffect(() => {
    const before = kept.current;
    if (!kit || !board.current || !before) return;
    kept.current = undefined;
    restore(board.current, before, press.current);
    press.current = undefined;
  }, [kit, board]);

  if (kit || !enabled) return { kit, handlers: undefined };

  const cardOf = (target: EventTarget) =>
    target instanceof Element ? (target.closest<HTMLElement>(CARD) ?? undefined) : undefined;
  const handlers = {
    onPointerOver: (event: PointerEvent) => {
      if (cardOf(event.target)) load();
    },
    onFocus: (event: { target: EventTarget }) => {
      if (cardOf(event.target)) load();
    },
    onPointerDownCapture: (event: PointerEvent) => {
      const card = cardOf(event.target);
      if (!card || !event.isPrimary || event.button !== 0) return;
      load();
      if (event.pointerType === 'touch') return;
      const { clientX, clientY, pointerId, pointerType } = event;
      press.current = {
        key: card.dataset['taskKey'] ?? '',
        kind: 'pointer',
        init: { clientX, clientY, pointerId, pointerType, isPrimary: true, button: 0, buttons: 1 },
      };
      const release = () => {
        if (press.current?.kind === 'pointer') press.current = undefined;
      };
      window.addEventListener('pointerup', release, { once: true, capture: true });
      window.addEventListener('pointercancel', release, { once: true, capture: true });
    },
    onKeyDownCapture: (event: KeyboardEvent) => {
      const card = cardOf(event.target);
      if (event.code !== 'Space' || !card || card !== event.target) return;
      // Space would scroll the board; it lifts the card instead, as soon as it can.
      event.preventDefault();
      event.stopPropagation();
      press.current = { key: card.dataset['taskKey'] ?? '', kind: 'key' };
      load();
    },
    // A card is a link, which the browser would drag as a link while dnd-kit is not here to stop it.
    onDragStart: (event: DragEvent) => {
      if (cardOf(event.target)) event.preventDefault();
    },
  };
  return { kit, handlers };
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

function restore(board: HTMLElement, before: Kept, pending: Press | undefined): void {
  board.scrollLeft = before.scrollLeft;
  board.querySelectorAll<HTMLElement>(COLUMN_BODY).forEach((body, index) => {
    body.scrollTop = before.scrollTops[index] ?? 0;
  });
  const key = pending?.key ?? before.focusedKey;
  if (key) requestAnimationFrame(() => whenCardDrawn(board, key, (card) => resume(card, pending)));
}

/** Gives focus back to the card, and lifts it if it was pressed: dnd-kit's sensors take the press as if new. */
function resume(card: HTMLElement, pending: Press | undefined): void {
  card.focus({ preventScroll: true });
  if (pending?.kind === 'key') {
    card.dispatchEvent(
      new window.KeyboardEvent('keydown', { key: ' ', code: 'Space', bubbles: true, cancelable: true }),
    );
  } else if (pending?.kind === 'pointer') {
    card.dispatchEvent(
      new window.PointerEvent('pointerdown', { ...pending.init, bubbles: true, cancelable: true }),
    );
  }
}

/** Runs `then` with the card once the column's virtualizer has drawn it again (a frame or two). */
function whenCardDrawn(board: HTMLElement, key: string, then: (card: HTMLElement) => void, attempts = 5) {
  const card = board.querySelector<HTMLElement>(`${CARD}[data-task-key="${CSS.escape(key)}"]`);
  if (card) then(card);
  else if (attempts > 0) requestAnimationFrame(() => whenCardDrawn(board, key, then, attempts - 1));
}
