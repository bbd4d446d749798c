import type { TaskStatus } from '../../../lib/tasks/status-labels.ts';
import type { CsvField, ImportOptions, ImportPreview } from '../import-types.ts';
import { countOf, summarize } from '../import-wording.ts';
import { CsvColumnMapping } from './csv-column-mapping.tsx';
import { FirstTasks } from './first-tasks.tsx';
import { ImportProblems } from './import-problems.tsx';
import { StatusMapping } from './status-mapping.tsx';
import styles from './imports.module.css';

interface ImportPreviewViewProps {
  preview: ImportPreview;
  options: ImportOptions;
  /** A new dry run is on its way: the mapping waits for it. */
  refreshing: boolean;
  onOptionsChange: (options: ImportOptions) => void;
}

/** What the import would create, with the mapping to change and the problems found. */
export function ImportPreviewView({ preview, options, refreshing, onOptionsChange }: ImportPreviewViewProps) {
  const setStatus = (sourceId: string, status: TaskStatus) =>
    onOptionsChange({ ...options, statuses: { ...options.statuses, [sourceId]: status } });
  const setCsvField = (header: string, field: CsvField) =>
    onOptionsChange({ ...options, csv_columns: { ...options.csv_columns, [header]: field } });
  return (
    <div className={styles.preview} aria-busy={refreshing}>
      <p className={styles.summary}>{summarize(preview)}</p>
      {preview.source === 'trello' && (
        <label className={styles.check}>
          <input
            type="checkbox"
            checked={options.archived === 'canceled'}
            disabled={refreshing}
            onChange={(event) =>
              onOptionsChange({ ...options, archived: event.target.checked ? 'canceled' : 'skip' })
            }
          />
          Import archived cards as Canceled
        </label>
      )}
      <CsvColumnMapping columns={preview.csv_columns} disabled={refreshing} onChange={setCsvField} />
      {preview.projects.map((project) => (
        <section key={project.source_id} className={styles.project} aria-label={`Project ${project.name}`}>
          <h3 className={styles.heading}>
            {project.name} <span className={styles.key}>{project.key}</span>{' '}
            <span className={styles.badge}>
              {project.exists ? `imports into existing ${project.key}` : 'new project'}
            </span>
          </h3>
          <ProjectTaskCounts tasks={project.tasks} />
          <StatusMapping project={project} disabled={refreshing} onChange={setStatus} />
          <FirstTasks project={project} />
        </section>
      ))}
      <ImportProblems problems={preview.problems} />
    </div>
  );
}

function ProjectTaskCounts({ tasks }: { tasks: ImportPreview['projects'][number]['tasks'] }) {
  const notes = [
    countOf(tasks.create, 'new task'),
    tasks.already_imported > 0 ? `${tasks.already_imported} already imported` : null,
    tasks.archived_skipped > 0 ? `${countOf(tasks.archived_skipped, 'archived card')} left out` : null,
    tasks.invalid > 0 ? `${tasks.invalid} left out for errors` : null,
  ].filter(Boolean);
  return <p className="muted">{notes.join(' · ')}</p>;
}
