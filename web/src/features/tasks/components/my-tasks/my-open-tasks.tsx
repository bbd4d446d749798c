import { Link } from '@tanstack/react-router';
import { LoadError } from '../../../../components/ui/load-error.tsx';
import { paths } from '../../../../config/paths.ts';
import { classNames } from '../../../../components/ui/class-names.ts';
import { MY_OPEN_TASKS, useWorkspaceTasks } from '../../api/list-workspace-tasks.ts';
import { formatDueDate, isOverdue } from '../../../../lib/dates/due-date.ts';
import { PriorityIcon } from '../task-meta/priority.tsx';
import { projectKeyOf } from '../../task-key.ts';
import { STATUS_LABELS, StatusIcon } from '../task-meta/status.tsx';
import styles from './my-open-tasks.module.css';

/** The caller's open tasks across the workspace's projects, soonest due first, each a link to the task. */
export function MyOpenTasks({ slug }: { slug: string }) {
  const tasks = useWorkspaceTasks(slug, MY_OPEN_TASKS);
  if (tasks.isPending) return <RowsSkeleton />;
  if (tasks.error) {
    return (
      <LoadError
        what="Your open tasks"
        error={tasks.error}
        onRetry={() => void tasks.refetch()}
        retrying={tasks.isFetching}
      />
    );
  }
  if (tasks.data.data.length === 0) {
    return (
      <p className={styles.empty}>
        Nothing is assigned to you. Tasks assigned to you on any board of this workspace show up here.
      </p>
    );
  }
  return (
    <ul className={styles.list}>
      {tasks.data.data.map((task) => (
        <li key={task.id}>
          <Link
            to={paths.task}
            params={{ slug, key: projectKeyOf(task.key), number: task.number }}
            className={styles.row}
          >
            <span className={styles.status} title={STATUS_LABELS[task.status]}>
              <StatusIcon status={task.status} />
            </span>
            <span className={styles.key}>{task.key}</span>
            <span className={styles.title}>{task.title}</span>
            <PriorityIcon priority={task.priority} label />
            {task.due_date && (
              <span className={classNames(styles.due, isOverdue(task.due_date) && styles.overdue)}>
                {formatDueDate(task.due_date)}
              </span>
            )}
          </Link>
        </li>
      ))}
      {tasks.data.next_cursor && (
        <li className={styles.more}>Showing the {tasks.data.data.length} due soonest.</li>
      )}
    </ul>
  );
}

function RowsSkeleton() {
  return (
    <ul className={styles.list} aria-hidden="true">
      {[0, 1, 2].map((row) => (
        <li key={row} className={styles.skeletonRow} />
      ))}
    </ul>
  );
}
