import * as RadixMenu from '@radix-ui/react-dropdown-menu';
import type { ReactNode } from 'react';
import styles from './panel.module.css';

export interface PropertyOption {
  value: string;
  label: string;
  icon?: ReactNode;
}

interface PropertyMenuProps {
  /** The property's name ("Status"): the trigger reads "Status: In progress". */
  name: string;
  value: string;
  options: readonly PropertyOption[];
  onChange: (value: string) => void;
  disabled?: boolean;
}

/** A one-of-many property as a button opening a menu of radio items (Radix: arrows, type-ahead, Esc). */
export function PropertyMenu({ name, value, options, onChange, disabled }: PropertyMenuProps) {
  const current = options.find((option) => option.value === value);
  return (
    // Not modal, as every menu (components/ui/radix-menu.tsx): nothing focusable is hidden with aria-hidden.
    <RadixMenu.Root modal={false}>
      <RadixMenu.Trigger
        className={styles.propertyButton}
        aria-label={`${name}: ${current?.label ?? value}`}
        disabled={disabled}
      >
        {current?.icon}
        <span className={styles.propertyText}>{current?.label ?? value}</span>
      </RadixMenu.Trigger>
      <RadixMenu.Portal>
        <RadixMenu.Content className={styles.menu} aria-label={name} align="start" sideOffset={4}>
          <RadixMenu.RadioGroup value={value} onValueChange={onChange}>
            {options.map((option) => (
              <RadixMenu.RadioItem key={option.value} value={option.value} className={styles.menuItem}>
                {option.icon}
                <span className={styles.propertyText}>{option.label}</span>
                <RadixMenu.ItemIndicator className={styles.check}>✓</RadixMenu.ItemIndicator>
              </RadixMenu.RadioItem>
            ))}
          </RadixMenu.RadioGroup>
        </RadixMenu.Content>
      </RadixMenu.Portal>
    </RadixMenu.Root>
  );
}
