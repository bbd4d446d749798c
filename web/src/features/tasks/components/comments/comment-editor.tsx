import { CommentBodySchema } from '@api/comments/comments.schemas.ts';
import { useId, useState } from 'react';
import { Button } from '../../../../components/ui/button.tsx';
import { Markdown } from '../panel/markdown.tsx';
import styles from './comments.module.css';

interface CommentEditorProps {
  label: string;
  initial: string;
  submitLabel: string;
  /** Sends the body; resolves with an error to show beside the field, or null when it went through. */
  onSubmit: (body: string) => Promise<string | null>;
  onCancel?: () => void;
}

/** A markdown comment being written: Write/Preview, Ctrl/⌘+Enter sends, the API's refusal shown beside it. */
export function CommentEditor({ label, initial, submitLabel, onSubmit, onCancel }: CommentEditorProps) {
  const [body, setBody] = useState(initial);
  const [preview, setPreview] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errorId = useId();

  const submit = async () => {
    const parsed = CommentBodySchema.safeParse(body.trim());
    if (!parsed.success) return setError(`A comment ${parsed.error.issues[0]?.message ?? 'is not valid'}.`);
    setBusy(true);
    const problem = await onSubmit(parsed.data);
    setBusy(false);
    setError(problem);
  };

  return (
    <div className={styles.editor} data-editing={onCancel ? '' : undefined}>
      {preview ? (
        <div className={styles.preview}>
          {body.trim() ? <Markdown>{body}</Markdown> : <p className={styles.time}>Nothing to preview.</p>}
        </div>
      ) : (
        <textarea
          className={styles.textarea}
          aria-label={label}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          placeholder="Leave a comment… (markdown)"
          rows={onCancel ? 4 : 3}
          value={body}
          readOnly={busy}
          onChange={(event) => setBody(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
              event.preventDefault();
              void submit();
            } else if (event.key === 'Escape' && onCancel) {
              event.preventDefault();
              onCancel();
            }
          }}
        />
      )}
      {error && (
        <p id={errorId} className={styles.error}>
          {error}
        </p>
      )}
      <div className={styles.editorActions}>
        <button
          type="button"
          className={styles.textButton}
          aria-pressed={preview}
          onClick={() => setPreview(!preview)}
        >
          Preview
        </button>
        <span className={styles.hint}>Ctrl/⌘ + Enter to send</span>
        {onCancel && (
          <Button onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
        )}
        <Button variant="primary" onClick={() => void submit()} disabled={busy || !body.trim()}>
          {submitLabel}
        </Button>
      </div>
    </div>
  );
}
