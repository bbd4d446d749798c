import * as Popover from '@radix-ui/react-popover';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button.tsx';
import { describeError } from '../../../lib/api/api-error.ts';
import { useSetWatching, useTaskWatchers } from '../api/task-watchers.ts';
import styles from './watch-control.module.css';

interface WatchControlProps {
  taskId: string;
}

/**
 * The task panel's "Watch" toggle and who watches: watchers hear of new comments and status changes.
 * Viewers may watch too.
 */
export function WatchControl({ taskId }: WatchControlProps) {
  const watchers = useTaskWatchers(taskId);
  const setWatching = useSetWatching(taskId);

  if (watchers.isPending) {
    return (
      <div className={styles.control} aria-busy="true">
        <Button className={styles.toggle} disabled>
          Watch
        </Button>
      </div>
    );
  }
  if (watchers.isError) {
    return (
      <div className={styles.control}>
        <span className={styles.error}>Watchers could not be loaded.</span>
        <Button
          className={styles.toggle}
          disabled={watchers.isFetching}
          onClick={() => void watchers.refetch()}
        >
          Retry
        </Button>
      </div>
    );
  }

  const { watching, data } = watchers.data;
  // Shown as it will be while the request runs.
  const pressed = setWatching.isPending ? setWatching.variables : watching;
  const toggle = () =>
    setWatching.mutate(!watching, {
      onError: (error) =>
        toast.error(
          `${watching ? 'You still watch this task' : 'You do not watch this task'}: ${describeError(error)}`,
        ),
    });

  return (
    <div className={styles.control}>
      <Button
        className={styles.toggle}
        aria-pressed={pressed}
        disabled={setWatching.isPending}
        onClick={toggle}
        title="Watchers hear of new comments and status changes"
      >
        <EyeIcon />
        {pressed ? 'Watching' : 'Watch'}
      </Button>
      {data.length === 0 ? (
        <span className={styles.count}>Nobody watching</span>
      ) : (
        <Popover.Root>
          <Popover.Trigger className={styles.count} aria-label={`${data.length} watching: show who`}>
            {data.length} watching
          </Popover.Trigger>
          <Popover.Portal>
            <Popover.Content className={styles.popover} align="start" sideOffset={4} aria-label="Watchers">
              <p className={styles.popoverTitle}>Watching this task</p>
              <ul className={styles.names}>
                {data.map((watcher) => (
                  <li key={watcher.user_id}>{watcher.display_name}</li>
                ))}
              </ul>
            </Popover.Content>
          </Popover.Portal>
        </Popover.Root>
      )}
    </div>
  );
}

function EyeIcon() {
  return (
    <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
      <path
        d="M1.5 8s2.4-4.5 6.5-4.5S14.5 8 14.5 8s-2.4 4.5-6.5 4.5S1.5 8 1.5 8Z"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.4"
        strokeLinejoin="round"
      />
      <circle cx="8" cy="8" r="2" fill="currentColor" />
    </svg>
  );
}
