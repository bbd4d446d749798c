import { CommentBodySchema } from '@api/comments/comments.schemas.ts';
import { useId, useState } from 'react';
import { Button } from '../../../../components/ui/button.tsx';
import { WillSendMark } from '../../../../components/ui/will-send-mark.tsx';
import { DraftMark } from '../../drafts/draft-mark.tsx';
import type { DraftBase } from '../../drafts/draft-storage.ts';
import type { DraftSlot } from '../../drafts/use-draft.ts';
import { useLeaveWarning } from '../../drafts/use-leave-warning.ts';
import { MentionTextarea } from '../mentions/mention-textarea.tsx';
import { Markdown } from '../panel/markdown.tsx';
import styles from './comments.module.css';

interface CommentEditorProps {
  label: string;
  /** The text as saved (empty for a new comment); a kept draft opens in its place. */
  initial: string;
  /** Where the unsaved text is kept while it is typed, and what it began from (for If-Match). */
  draft: DraftSlot;
  draftBase: DraftBase | null;
  submitLabel: string;
  /** Sends the body; resolves with an error to show beside the field, or null when it went through. */
  onSubmit: (body: string) => Promise<string | null>;
  onCancel?: () => void;
}

/**
 * A markdown comment being written: Write/Preview, Ctrl/⌘+Enter sends, the API's refusal shown beside it.
 * Unsaved text is kept as a draft until it is sent or cancelled; Esc cancels only while nothing is unsaved
 * (with unsaved text it closes the panel, and the draft waits there for the next visit).
 */
export function CommentEditor(props: CommentEditorProps) {
  const { label, initial, draft, draftBase, submitLabel, onSubmit, onCancel } = props;
  const [body, setBody] = useState(() => draft.read()?.text ?? initial);
  const [preview, setPreview] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errorId = useId();
  const unsaved = body !== initial && body.trim() !== '';
  useLeaveWarning(unsaved);

  const edit = (text: string) => {
    setBody(text);
    if (text !== initial && text.trim() !== '') draft.keep(text, draftBase);
    else draft.discard();
  };

  const submit = async () => {
    const parsed = CommentBodySchema.safeParse(body.trim());
    if (!parsed.success) return setError(`A comment ${parsed.error.issues[0]?.message ?? 'is not valid'}.`);
    setBusy(true);
    const problem = await onSubmit(parsed.data);
    setBusy(false);
    setError(problem);
    if (problem === null) draft.discard();
  };

  const cancel =
    onCancel &&
    (() => {
      draft.discard();
      onCancel();
    });

  return (
    <div className={styles.editor} data-editing={cancel && !unsaved ? '' : undefined}>
      {preview ? (
        <div className={styles.preview}>
          {body.trim() ? <Markdown>{body}</Markdown> : <p className={styles.time}>Nothing to preview.</p>}
        </div>
      ) : (
        <MentionTextarea
          className={styles.textarea}
          aria-label={label}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          placeholder="Leave a comment… (markdown)"
          rows={onCancel ? 4 : 3}
          value={body}
          readOnly={busy}
          onValueChange={edit}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
              event.preventDefault();
              void submit();
            } else if (event.key === 'Escape' && cancel && !unsaved) {
              event.preventDefault();
              cancel();
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
        {unsaved && <DraftMark />}
        <WillSendMark sending={busy} />
        <span className={styles.hint}>Ctrl/⌘ + Enter to send</span>
        {cancel && (
          <Button onClick={cancel} disabled={busy}>
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
