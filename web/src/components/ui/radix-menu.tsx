import * as RadixMenu from '@radix-ui/react-dropdown-menu';
import type { ReactNode } from 'react';
import styles from './menu.module.css';

/** The Radix side of menu.tsx, loaded when a menu is first opened. */
export function RadixMenuRoot({
  trigger,
  label,
  children,
  defaultOpen,
}: {
  trigger: ReactNode;
  label: string;
  children: ReactNode;
  defaultOpen: boolean;
}) {
  return (
    // Not modal: a modal menu hides the rest of the page with aria-hidden while it stays focusable, which
    // screen readers stumble on (axe: aria-hidden-focus). A click outside or Esc still closes it.
    <RadixMenu.Root defaultOpen={defaultOpen} modal={false}>
      <RadixMenu.Trigger asChild>{trigger}</RadixMenu.Trigger>
      <RadixMenu.Portal>
        <RadixMenu.Content className={styles.content} aria-label={label} align="start" sideOffset={6}>
          {children}
        </RadixMenu.Content>
      </RadixMenu.Portal>
    </RadixMenu.Root>
  );
}

export function MenuItem({ onSelect, children }: { onSelect: () => void; children: ReactNode }) {
  return (
    <RadixMenu.Item className={styles.item} onSelect={onSelect}>
      {children}
    </RadixMenu.Item>
  );
}

/**
 * An item that is checked or not (role menuitemcheckbox). Choosing it toggles it and leaves the menu open,
 * so that several can be picked in a row.
 */
export function MenuCheckboxItem({
  checked,
  onCheckedChange,
  children,
}: {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  children: ReactNode;
}) {
  return (
    <RadixMenu.CheckboxItem
      className={styles.item}
      checked={checked}
      onCheckedChange={onCheckedChange}
      onSelect={(event) => event.preventDefault()}
    >
      {children}
    </RadixMenu.CheckboxItem>
  );
}

export function MenuLabel({ children }: { children: ReactNode }) {
  return <RadixMenu.Label className={styles.label}>{children}</RadixMenu.Label>;
}

export function MenuSeparator() {
  return <RadixMenu.Separator className={styles.separator} />;
}
