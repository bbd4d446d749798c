import { STATUS_LABELS } from '../../../lib/tasks/status-labels.ts';
import type { ImportPreview } from '../import-types.ts';
import styles from './imports.module.css';

type Project = ImportPreview['projects'][number];

/** The project's first tasks as they would be created. */
export function FirstTasks({ project }: { project: Project }) {
  if (project.first_tasks.length === 0) return null;
  return (
    <div className={styles.scroll}>
      <table className={styles.table}>
        <caption className={styles.caption}>First tasks</caption>
        <thead>
          <tr>
            <th scope="col">Title</th>
            <th scope="col">Status</th>
            <th scope="col">Labels</th>
          </tr>
        </thead>
        <tbody>
          {project.first_tasks.map((task, index) => (
            <tr key={index}>
              <td className={styles.title}>{task.title}</td>
              <td className={styles.nowrap}>{STATUS_LABELS[task.status]}</td>
              <td className="muted">{task.labels.join(', ') || '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
