import { VisuallyHidden } from '../../../components/ui/visually-hidden.tsx';
import { Avatar } from '../../../components/ui/avatar.tsx';
import { usePeopleOnBoard } from '../../../lib/realtime/live-store.ts';
import type { PresenceMember, PresenceState } from '../../../lib/realtime/presence.ts';
import styles from './presence.module.css';

/** At most this many faces; the rest are counted. */
const SHOWN = 5;

interface BoardPresenceProps {
  projectKey: string;
  meId: string | undefined;
  /** The workspace's members: only they show, by these names. */
  members: readonly PresenceMember[];
}

/** Which members have this board open right now, each with the task they are looking at, this person included. */
export function BoardPresence({ projectKey, meId, members }: BoardPresenceProps) {
  const people = usePeopleOnBoard(projectKey, members);
  if (people.length === 0) return null;
  const shown = people.slice(0, SHOWN);
  const more = people.length - shown.length;
  return (
    <ul className={styles.people} aria-label="On this board now">
      {shown.map((person) => {
        const label = describe(person, person.user_id === meId);
        return (
          <li key={person.user_id} className={styles.person} title={label} data-presence={person.user_id}>
            <Avatar name={person.display_name} id={person.user_id} decorative />
            {person.task_key && <span className={styles.viewing} aria-hidden="true" />}
            <VisuallyHidden>{label}</VisuallyHidden>
          </li>
        );
      })}
      {more > 0 && (
        <li
          className={styles.more}
          title={people
            .slice(SHOWN)
            .map((p) => p.display_name)
            .join(', ')}
        >
          +{more}
          <VisuallyHidden> more</VisuallyHidden>
        </li>
      )}
    </ul>
  );
}

/** "Maya Lopez (you), viewing WEB-12". */
export function describe(person: PresenceState, isMe: boolean): string {
  const name = isMe ? `${person.display_name} (you)` : person.display_name;
  return person.task_key ? `${name}, viewing ${person.task_key}` : name;
}
