import { Dialog } from '../../components/ui/dialog.tsx';
import styles from './palette.module.css';

/** Every keyboard shortcut of the app, for `?`. */
export const SHORTCUTS: readonly { keys: string[]; does: string }[] = [
  { keys: ['Ctrl/⌘', 'K'], does: 'Open the command palette' },
  { keys: ['c'], does: 'New task on the board' },
  { keys: ['/'], does: 'Search the board' },
  { keys: ['←', '↑', '→', '↓'], does: 'Move between cards' },
  { keys: ['Space'], does: 'Pick up or drop the focused card' },
  { keys: ['Enter'], does: 'Open the focused card; edit the title' },
  { keys: ['Ctrl/⌘', 'Enter'], does: 'Send a comment, save a description' },
  { keys: ['j', 'k'], does: 'Inbox: move between notifications (Enter opens one)' },
  { keys: ['e'], does: 'Inbox: archive or unarchive the selected notification' },
  { keys: ['u'], does: 'Inbox: mark the selected notification read or unread' },
  { keys: ['Esc'], does: 'Close the panel, a dialog or a menu; cancel an edit' },
  { keys: ['?'], does: 'Show these shortcuts' },
];

export function ShortcutsDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Keyboard shortcuts">
      <dl className={styles.shortcuts}>
        {SHORTCUTS.map((shortcut) => (
          <div key={shortcut.does} className={styles.shortcut}>
            <dt className={styles.keys}>
              {shortcut.keys.map((key) => (
                <kbd key={key} className={styles.kbd}>
                  {key}
                </kbd>
              ))}
            </dt>
            <dd className={styles.does}>{shortcut.does}</dd>
          </div>
        ))}
      </dl>
    </Dialog>
  );
}
