import * as RadixDialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { Button } from './button.tsx';
import { classNames } from './class-names.ts';
import styles from './dialog.module.css';

interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  /** One sentence under the title: what the dialog is for. */
  description?: string;
  /**
   * `sheet` slides in from the right and fills the screen on a phone (the task panel); `lightbox` is a
   * large dark frame over everything, dialogs included, for a picture.
   */
  variant?: 'centered' | 'sheet' | 'lightbox';
  /** Where focus goes when the dialog closes, if not back to what opened it. */
  onCloseAutoFocus?: (event: Event) => void;
  /** Call `event.preventDefault()` to keep the dialog open (Esc cancels an edit inside it instead). */
  onEscapeKeyDown?: (event: KeyboardEvent) => void;
  /** Beside the title, before the × button (a file's Download in its preview). */
  headerActions?: ReactNode;
  children: ReactNode;
}

/**
 * A modal dialog on Radix's primitive: focus trap, `Esc`, scroll lock, labelled by its title and
 * described by its description, focus returned to what opened it. A centered dialog opens with focus in
 * its first field, or else on its safe way out (`DialogCancel`), never on the × button: there, a space
 * typed as the dialog opens would close it.
 */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  variant = 'centered',
  onCloseAutoFocus,
  onEscapeKeyDown,
  headerActions,
  children,
}: DialogProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay
          className={classNames(styles.overlay, variant === 'lightbox' && styles.lightboxOverlay)}
        />
        <RadixDialog.Content
          className={classNames(styles.content, styles[variant])}
          onOpenAutoFocus={variant === 'centered' ? focusFirstFieldOrCancel : undefined}
          onCloseAutoFocus={onCloseAutoFocus}
          onEscapeKeyDown={onEscapeKeyDown}
          {...(description === undefined ? { 'aria-describedby': undefined } : {})}
        >
          <header className={styles.header}>
            <RadixDialog.Title className={styles.title}>{title}</RadixDialog.Title>
            {headerActions && <span className={styles.headerActions}>{headerActions}</span>}
            <RadixDialog.Close className={styles.close} aria-label="Close">
              <span aria-hidden="true">×</span>
            </RadixDialog.Close>
          </header>
          {description !== undefined && (
            <RadixDialog.Description className={styles.description}>{description}</RadixDialog.Description>
          )}
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

const FIELD = 'input:not([type="hidden"]):not(:disabled), textarea:not(:disabled), select:not(:disabled)';

/** Radix focuses the first tabbable element, the × button; a form's first field or Cancel comes first. */
function focusFirstFieldOrCancel(event: Event) {
  const content = event.currentTarget;
  if (!(content instanceof HTMLElement)) return;
  const target =
    content.querySelector<HTMLElement>(FIELD) ?? content.querySelector<HTMLElement>('[data-dialog-cancel]');
  if (!target) return;
  event.preventDefault();
  target.focus();
  // As Radix does: a field that has a value (a name being edited) is selected, so typing replaces it.
  if (target instanceof HTMLInputElement) target.select();
}

/** The safe way out of a dialog that asks before it acts: it closes the dialog and has focus when it opens. */
export function DialogCancel({
  children = 'Cancel',
  disabled,
}: {
  children?: ReactNode;
  disabled?: boolean;
}) {
  return (
    <RadixDialog.Close asChild>
      <Button data-dialog-cancel="" disabled={disabled}>
        {children}
      </Button>
    </RadixDialog.Close>
  );
}
