import {
  cloneElement,
  isValidElement,
  useEffect,
  useState,
  type KeyboardEvent,
  type ReactElement,
  type ReactNode,
} from 'react';
import type * as RadixMenuExports from './radix-menu.tsx';

/**
 * A dropdown menu on Radix's primitive (arrow keys, type-ahead, `Esc`, focus returned to the trigger).
 * `trigger` must be a single focusable element (a button); it gets the menu's ARIA attributes.
 *
 * Radix's menu (with its positioning and focus layers) is a fifth of a screen's JavaScript, and a closed
 * menu needs none of it: until a menu is first opened, its trigger is the plain button, and the menu's
 * code loads when the pointer or focus comes near a trigger (or, at the latest, on the press itself).
 */
export function Menu({
  trigger,
  label,
  children,
}: {
  trigger: ReactNode;
  label: string;
  children: ReactNode;
}) {
  const [opened, setOpened] = useState(false);
  const [radix, setRadix] = useState(loadedRadix);

  useEffect(() => {
    if (opened && !radix) void loadRadix().then(setRadix);
  }, [opened, radix]);

  if (opened && radix) {
    return (
      <radix.RadixMenuRoot trigger={trigger} label={label} defaultOpen>
        {children}
      </radix.RadixMenuRoot>
    );
  }
  if (!isValidElement<TriggerProps>(trigger)) return trigger;
  return cloneElement(trigger as ReactElement<TriggerProps>, {
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    onPointerEnter: preload,
    onFocus: preload,
    onClick: () => setOpened(true),
    onKeyDown: (event: KeyboardEvent) => {
      if (event.key !== 'ArrowDown') return;
      event.preventDefault();
      setOpened(true);
    },
  });
}

interface TriggerProps {
  'aria-haspopup'?: 'menu';
  'aria-expanded'?: boolean;
  onPointerEnter?: () => void;
  onFocus?: () => void;
  onClick?: () => void;
  onKeyDown?: (event: KeyboardEvent) => void;
}

type RadixMenuModule = typeof RadixMenuExports;

let loadedRadix: RadixMenuModule | null = null;
let loadingRadix: Promise<RadixMenuModule> | null = null;

function loadRadix(): Promise<RadixMenuModule> {
  loadingRadix ??= import('./radix-menu.tsx').then((module) => (loadedRadix = module));
  return loadingRadix;
}

function preload(): void {
  void loadRadix();
}

// Only rendered inside an open menu, so the Radix module is there by then.

export function MenuItem(props: { onSelect: () => void; children: ReactNode }) {
  return loadedRadix && <loadedRadix.MenuItem {...props} />;
}

export function MenuCheckboxItem(props: {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  children: ReactNode;
}) {
  return loadedRadix && <loadedRadix.MenuCheckboxItem {...props} />;
}

export function MenuLabel(props: { children: ReactNode }) {
  return loadedRadix && <loadedRadix.MenuLabel {...props} />;
}

export function MenuSeparator() {
  return loadedRadix && <loadedRadix.MenuSeparator />;
}
