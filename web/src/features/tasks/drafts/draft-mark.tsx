import { VisuallyHidden } from '../../../components/ui/visually-hidden.tsx';
import styles from './drafts.module.css';

/** The discreet sign beside an editor that its unsaved text is kept (in this browser, until saved or cancelled). */
export function DraftMark() {
  return (
    <span className={styles.mark} title="Kept in this browser until you save or cancel">
      <span>Draft</span>
      <VisuallyHidden>, kept in this browser until you save or cancel</VisuallyHidden>
    </span>
  );
}
