import { classNames } from '../../../components/ui/class-names.ts';
import { STATUS_LABELS, type TaskStatus } from '../../../lib/tasks/status-labels.ts';
import type { ImportPreview } from '../import-types.ts';
import styles from './imports.module.css';

type Project = ImportPreview['projects'][number];

interface StatusMappingProps {
  project: Project;
  disabled: boolean;
  onChange: (sourceId: string, status: TaskStatus) => void;
}

const STATUSES = Object.keys(STATUS_LABELS) as TaskStatus[];

/** Each column of the file and the status its tasks get on the board. */
export function StatusMapping({ project, disabled, onChange }: StatusMappingProps) {
  if (project.columns.length === 0) return null;
  return (
    <div className={classNames(styles.scroll, styles.mapping)}>
      <table className={styles.table}>
        <caption className={styles.caption}>Columns → statuses</caption>
        <thead>
          <tr>
            <th scope="col">Column in the file</th>
            <th scope="col" className={styles.number}>
              Tasks
            </th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {project.columns.map((column) => (
            <tr key={column.source_id}>
              <th scope="row" className={styles.name}>
                {column.name}
              </th>
              <td className={styles.number}>{column.tasks}</td>
              <td>
                <select
                  className={styles.select}
                  aria-label={`Status for ${column.name}`}
                  value={column.status}
                  disabled={disabled}
                  onChange={(event) => onChange(column.source_id, event.target.value as TaskStatus)}
                >
                  {STATUSES.map((status) => (
                    <option key={status} value={status}>
                      {STATUS_LABELS[status]}
                    </option>
                  ))}
                </select>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
