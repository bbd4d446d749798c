import { Avatar } from '../../../components/ui/avatar.tsx';
import { LoadError } from '../../../components/ui/load-error.tsx';
import { useRecentActivity } from '../api/list-workspace-events.ts';
import { describeEvent, type EventWording } from '../describe-event.ts';
import { relativeTime } from '../../../lib/dates/relative-time.ts';
import styles from './activity-feed.module.css';

interface ActivityFeedProps extends Omit<EventWording, 'taskKeys'> {
  slug: string;
}

/** The workspace's latest changes, newest first, in words. */
export function ActivityFeed({ slug, ...wording }: ActivityFeedProps) {
  const activity = useRecentActivity(slug);
  if (activity.isPending) return <RowsSkeleton />;
  if (activity.error) {
    return (
      <LoadError
        what="Recent activity"
        error={activity.error}
        onRetry={() => void activity.refetch()}
        retrying={activity.isFetching}
      />
    );
  }
  const { events, taskKeys, caughtUp } = activity.data;
  if (events.length === 0) {
    return (
      <p className={styles.empty}>
        Nothing has happened here yet. Changes to projects and tasks show up here.
      </p>
    );
  }
  const taskKeysById = new Map(Object.entries(taskKeys));
  return (
    <>
      <ol className={styles.list}>
        {events.toReversed().map((event) => {
          const actorId = event.actor.user_id ?? 'tasklane';
          const actorName = event.actor.user_id
            ? (wording.names.get(event.actor.user_id) ?? 'Someone')
            : 'Tasklane';
          return (
            <li key={event.id} className={styles.row}>
              <Avatar name={actorName} id={actorId} decorative />
              <span className={styles.text}>
                {describeEvent(event, { ...wording, taskKeys: taskKeysById })}
              </span>
              <time
                className={styles.time}
                dateTime={event.created_at}
                title={new Date(event.created_at).toLocaleString()}
              >
                {relativeTime(event.created_at)}
              </time>
            </li>
          );
        })}
      </ol>
      {!caughtUp && (
        <p className={styles.empty}>The feed is long; these are the latest changes read so far.</p>
      )}
    </>
  );
}

function RowsSkeleton() {
  return (
    <ol className={styles.list} aria-hidden="true">
      {[0, 1, 2, 3].map((row) => (
        <li key={row} className={styles.skeletonRow} />
      ))}
    </ol>
  );
}
