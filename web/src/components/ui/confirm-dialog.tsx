import * as AlertDialog from '@radix-ui/react-alert-dialog';
import type { ReactNode } from 'react';
import { buttonClassName } from './button.tsx';
import styles from './confirm-dialog.module.css';

interface ConfirmDialogProps {
  /** The element that opens it (a button). */
  trigger: ReactNode;
  title: string;
  description: string;
  confirm: string;
  onConfirm: () => void;
}

/** Asks before something that cannot be undone (Radix alert dialog: focus on Cancel, Esc cancels). */
export function ConfirmDialog({ trigger, title, description, confirm, onConfirm }: ConfirmDialogProps) {
  return (
    <AlertDialog.Root>
      <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={styles.confirmOverlay} />
        <AlertDialog.Content className={styles.confirm}>
          <AlertDialog.Title className={styles.confirmTitle}>{title}</AlertDialog.Title>
          <AlertDialog.Description className={styles.description}>{description}</AlertDialog.Description>
          <div className={styles.confirmActions}>
            <AlertDialog.Cancel className={buttonClassName('secondary')}>Cancel</AlertDialog.Cancel>
            <AlertDialog.Action className={buttonClassName('danger')} onClick={onConfirm}>
              {confirm}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
