import { mentionLabel } from '../../../../lib/mentions/mention-text.ts';
import { useMentionMembers } from './mention-members.ts';
import styles from './mentions.module.css';

/** A mention in rendered markdown: `@Maya`, the member's current name, as a pill (not a link). */
export function MentionChip({ userId }: { userId: string }) {
  const members = useMentionMembers();
  const label = mentionLabel(userId, (id) => members.find((member) => member.user_id === id)?.display_name);
  return (
    <span className={styles.chip} data-mention={userId}>
      {label}
    </span>
  );
}
