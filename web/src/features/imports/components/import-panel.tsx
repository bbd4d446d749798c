import { useRef, useState } from 'react';
import { toast } from 'sonner';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { LoadingLine } from '../../../components/ui/loading-line.tsx';
import { PanelSection } from '../../../components/ui/panel-section.tsx';
import { describeError } from '../../../lib/api/api-error.ts';
import { usePreviewImport } from '../api/preview-import.ts';
import { useRunImport } from '../api/run-import.ts';
import type { Import, ImportOptions, ImportPreview, ImportSource } from '../import-types.ts';
import { ImportPreviewView } from './import-preview-view.tsx';
import { ImportResult, importSentence } from './import-result.tsx';
import { SourcePicker } from './source-picker.tsx';
import styles from './imports.module.css';

interface ImportPanelProps {
  slug: string;
  /** Owners and admins may import. */
  canImport: boolean;
  /** Called once an import is written, so the app can fetch the workspace's projects again. */
  onImported?: (done: Import) => void;
}

/** The Import tab: a Trello board, a CSV or a Tasklane export, previewed, mapped, then imported. */
export function ImportPanel({ slug, canImport, onImported }: ImportPanelProps) {
  if (!canImport) {
    return (
      <PanelSection title="Import">
        <p className="muted">Only owners and admins can import into the workspace.</p>
      </PanelSection>
    );
  }
  return <Importer slug={slug} onImported={onImported} />;
}

function Importer({ slug, onImported }: Pick<ImportPanelProps, 'slug' | 'onImported'>) {
  const [source, setSource] = useState<ImportSource>('trello');
  const [file, setFile] = useState<File | null>(null);
  const [options, setOptions] = useState<ImportOptions>({});
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [done, setDone] = useState<Import | null>(null);
  const [inputKey, setInputKey] = useState(0);
  const previewing = usePreviewImport(slug);
  const importing = useRunImport(slug);
  // Only the latest dry run's answer is shown, whichever order the answers come back in.
  const latest = useRef(0);

  const dryRun = (nextSource: ImportSource, nextFile: File, nextOptions: ImportOptions) => {
    const run = ++latest.current;
    importing.reset();
    previewing.mutate(
      { source: nextSource, file: nextFile, options: nextOptions },
      {
        onSuccess: (answer) => {
          if (run === latest.current) setPreview(answer);
        },
        onError: () => {
          if (run === latest.current) setPreview(null);
        },
      },
    );
  };

  const chooseSource = (next: ImportSource) => {
    setSource(next);
    setOptions({});
    if (file) dryRun(next, file, {});
  };
  const chooseFile = (next: File | null) => {
    setFile(next);
    setOptions({});
    setPreview(null);
    setDone(null);
    if (next) dryRun(source, next, {});
  };
  const changeOptions = (next: ImportOptions) => {
    setOptions(next);
    if (file) dryRun(source, file, next);
  };
  const startImport = () => {
    if (!file) return;
    importing.mutate(
      { source, file, options },
      {
        onSuccess: (answer) => {
          setDone(answer);
          setPreview(null);
          setFile(null);
          setOptions({});
          setInputKey((key) => key + 1);
          toast.success(importSentence(answer));
          onImported?.(answer);
        },
      },
    );
  };

  const refreshing = previewing.isPending;
  return (
    <PanelSection title="Import">
      <p className="muted">
        Bring in a Trello board, a CSV of tasks or another workspace’s Tasklane export. You see a preview
        first and choose how columns map to statuses; nothing is written until you press Import, and the
        import is all or nothing. Importing the same file again only adds what is new.
      </p>
      <SourcePicker source={source} onChange={chooseSource} />
      <div className={styles.fileField}>
        <label htmlFor="import-file" className={styles.legend}>
          File
        </label>
        <input
          key={inputKey}
          id="import-file"
          type="file"
          className={styles.file}
          accept={source === 'csv' ? '.csv,text/csv' : '.json,application/json'}
          onChange={(event) => chooseFile(event.target.files?.[0] ?? null)}
        />
      </div>
      {refreshing && <LoadingLine>{preview ? 'Updating the preview…' : 'Reading the file…'}</LoadingLine>}
      {previewing.error && !refreshing && <Alert>{describeError(previewing.error)}</Alert>}
      {preview && (
        <>
          <ImportPreviewView
            preview={preview}
            options={options}
            refreshing={refreshing}
            onOptionsChange={changeOptions}
          />
          <div className={styles.actions}>
            <Button
              variant="primary"
              disabled={!preview.can_import || refreshing || importing.isPending}
              aria-describedby={preview.can_import ? undefined : 'import-blocked'}
              onClick={startImport}
            >
              {importing.isPending ? 'Importing…' : 'Import'}
            </Button>
            {!preview.can_import && (
              <p id="import-blocked" className={styles.blocked}>
                The file has errors (listed above); fix them in the file and choose it again. Nothing is
                imported while any remain.
              </p>
            )}
          </div>
        </>
      )}
      {importing.error && <Alert>{describeError(importing.error)}</Alert>}
      {done && <ImportResult slug={slug} done={done} />}
    </PanelSection>
  );
}
