import type { ReactNode } from 'react';
import { Button } from '../../../../components/ui/button.tsx';
import styles from './panel.module.css';

interface ConflictNoticeProps {
  /** What the field is called, in a sentence: "title", "description". */
  field: string;
  /** The value someone else saved, as it is now. */
  current: ReactNode;
  onUseMine: () => void;
  onDiscardMine: () => void;
  busy?: boolean;
}

/** Someone else changed the field first: what they wrote, and the choice between the two versions. */
export function ConflictNotice({ field, current, onUseMine, onDiscardMine, busy }: ConflictNoticeProps) {
  return (
    <div className={styles.conflict} role="alert">
      <p className={styles.conflictText}>
        Someone else changed the {field} while you were editing. Yours stays in the field; theirs is now:
      </p>
      <div className={styles.conflictCurrent}>{current}</div>
      <div className={styles.actions}>
        {/* mousedown would blur the field first, which saves; these decide instead. */}
        <Button variant="primary" onMouseDown={(e) => e.preventDefault()} onClick={onUseMine} disabled={busy}>
          Use mine
        </Button>
        <Button onMouseDown={(e) => e.preventDefault()} onClick={onDiscardMine} disabled={busy}>
          Discard mine
        </Button>
      </div>
    </div>
  );
}
