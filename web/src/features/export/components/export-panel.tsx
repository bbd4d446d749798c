import { toast } from 'sonner';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { PanelSection } from '../../../components/ui/panel-section.tsx';
import { describeError } from '../../../lib/api/api-error.ts';
import { useExportWorkspace } from '../api/export-workspace.ts';
import { saveFile } from '../save-file.ts';
import { formatBytes } from '../../../lib/files/format-bytes.ts';
import { IncompleteExportError, type ExportFile, type ExportProgress } from '../read-export.ts';
import styles from './export-panel.module.css';

interface ExportPanelProps {
  slug: string;
  /** Owners and admins may export. */
  canExport: boolean;
}

/** The Export tab: the whole workspace as one JSON file, downloaded with its progress, then saved. */
export function ExportPanel({ slug, canExport }: ExportPanelProps) {
  if (!canExport) {
    return (
      <PanelSection title="Export">
        <p className="muted">Only owners and admins can export the workspace. Ask one of them for a copy.</p>
      </PanelSection>
    );
  }
  return <Exporter slug={slug} />;
}

function Exporter({ slug }: { slug: string }) {
  const exporting = useExportWorkspace(slug);
  const file = exporting.data;
  return (
    <PanelSection title="Export">
      <p className="muted">
        One JSON file with the workspace's members, labels, projects (archived too), tasks and comments, as
        the API answers them. A workspace can be exported 10 times an hour.
      </p>
      <Button
        variant="primary"
        disabled={exporting.isPending}
        onClick={() =>
          exporting.mutate(undefined, {
            onSuccess: (done) => {
              saveFile(done.blob, done.filename);
              toast.success(`Exported ${done.filename}.`);
            },
          })
        }
      >
        {exporting.isPending ? 'Exporting…' : file ? 'Export again' : 'Export workspace'}
      </Button>
      {exporting.isPending && exporting.progress && <Progress progress={exporting.progress} />}
      {exporting.error && (
        <Alert>
          {exporting.error instanceof IncompleteExportError
            ? exporting.error.message
            : describeError(exporting.error)}
        </Alert>
      )}
      {file && !exporting.isPending && <SavedFile file={file} />}
    </PanelSection>
  );
}

function Progress({ progress }: { progress: ExportProgress }) {
  const received = formatBytes(progress.received);
  return (
    <div className={styles.progress}>
      <progress
        className={styles.bar}
        aria-label="Export progress"
        {...(progress.total ? { value: progress.received, max: progress.total } : {})}
      />
      <p className={styles.count} role="status">
        {progress.total ? `${received} of ${formatBytes(progress.total)}` : `${received} received`}
      </p>
    </div>
  );
}

/** What the export held, and a way to save the file again. */
function SavedFile({ file }: { file: ExportFile }) {
  const tasks = file.tasks === 1 ? '1 task' : `${file.tasks} tasks`;
  const projects = file.projects === 1 ? '1 project' : `${file.projects} projects`;
  return (
    <div className={styles.saved} role="status">
      <p>
        Exported {tasks} from {projects} ({formatBytes(file.bytes)}).
      </p>
      <Button onClick={() => saveFile(file.blob, file.filename)}>Save {file.filename} again</Button>
    </div>
  );
}
