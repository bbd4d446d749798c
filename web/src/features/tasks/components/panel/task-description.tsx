import { TaskDescriptionSchema } from '@api/tasks/tasks.schemas.ts';
import { useId, useState, type KeyboardEvent } from 'react';
import { Button } from '../../../../components/ui/button.tsx';
import { WillSendMark } from '../../../../components/ui/will-send-mark.tsx';
import { DraftMark } from '../../drafts/draft-mark.tsx';
import type { DraftBase, DraftPlace } from '../../drafts/draft-storage.ts';
import { useDraft, type DraftSlot } from '../../drafts/use-draft.ts';
import { useLeaveWarning } from '../../drafts/use-leave-warning.ts';
import { ConflictNotice } from './conflict-notice.tsx';
import { MentionTextarea } from '../mentions/mention-textarea.tsx';
import { Markdown } from './markdown.tsx';
import type { Task } from './task-context.ts';
import { useChecklistTicks } from './use-checklist-ticks.ts';
import { fieldMessage, type SaveOutcome } from './use-task-saver.ts';
import styles from './panel.module.css';

interface TaskDescriptionProps {
  task: Task;
  canEdit: boolean;
  save: (task: Task, patch: { description: string }, done: string) => Promise<SaveOutcome>;
  /** Where the unsaved text is kept (features/tasks/drafts); null keeps none. */
  draftPlace: DraftPlace | null;
}

/**
 * The description in markdown: rendered safely, written with Edit and Preview, saved with `If-Match`.
 * Unsaved text is kept as a draft while it is typed; the editor opens with it when the task is opened
 * again, and Esc with unsaved text closes the panel, keeping it, rather than throwing it away.
 */
export function TaskDescription({ task, canEdit, save, draftPlace }: TaskDescriptionProps) {
  const slot = useDraft(draftPlace, 'description');
  const [restored] = useState(() => (canEdit ? restoredDraft(slot, task) : null));
  const [draft, setDraft] = useState<string | null>(restored?.text ?? null);
  // The task as it was when editing began: others' changes now show live, and must not slip past If-Match.
  const [base, setBase] = useState<Task | null>(restored ? baseTask(task, restored.base) : null);
  const [openedByButton, setOpenedByButton] = useState(false);
  const [preview, setPreview] = useState(false);
  const [conflict, setConflict] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errorId = useId();
  const from = base ?? task;
  const unsaved = draft !== null && draft !== from.description;
  useLeaveWarning(unsaved);

  const checklist = useChecklistTicks(task, save);

  if (draft === null) {
    return (
      <section className={styles.description} aria-label="Description">
        {task.description ? (
          <Markdown onTick={canEdit ? checklist.tick : undefined}>{checklist.shown}</Markdown>
        ) : (
          <p className={styles.placeholder}>{canEdit ? 'No description yet.' : 'No description.'}</p>
        )}
        {canEdit && (
          <div>
            <Button
              onClick={() => {
                setDraft(task.description);
                setBase(task);
                setOpenedByButton(true);
              }}
            >
              {task.description ? 'Edit description' : 'Add a description'}
            </Button>
          </div>
        )}
      </section>
    );
  }

  const stop = () => {
    slot.discard();
    setDraft(null);
    setBase(null);
    setPreview(false);
    setConflict(false);
    setError(null);
  };

  /** Saved over the version the draft began from, unless the description is still as it was then. */
  const commit = async (over: Task = base && base.description !== task.description ? base : task) => {
    const parsed = TaskDescriptionSchema.safeParse(draft);
    if (!parsed.success) {
      return setError(`The description ${parsed.error.issues[0]?.message ?? 'is not valid'}.`);
    }
    if (parsed.data === task.description) return stop();
    setBusy(true);
    const outcome = await save(over, { description: parsed.data }, 'Description saved');
    setBusy(false);
    if (outcome.kind === 'saved') return stop();
    if (outcome.kind === 'conflict') {
      setError(null);
      return setConflict(true);
    }
    setError(fieldMessage(outcome, 'description'));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
      event.preventDefault();
      void commit();
    } else if (event.key === 'Escape' && !conflict && !unsaved) {
      event.preventDefault();
      stop();
    }
  };

  const edit = (text: string) => {
    setDraft(text);
    if (text === from.description) slot.discard();
    else slot.keep(text, { text: from.description, version: from.version });
  };

  return (
    // Esc belongs to the field while nothing is unsaved (it cancels); with unsaved text it closes the panel.
    <section className={styles.description} aria-label="Description" data-editing={unsaved ? undefined : ''}>
      <div className={styles.tabs} role="group" aria-label="Description view">
        <button
          type="button"
          className={styles.tab}
          aria-pressed={!preview}
          onClick={() => setPreview(false)}
        >
          Edit
        </button>
        <button type="button" className={styles.tab} aria-pressed={preview} onClick={() => setPreview(true)}>
          Preview
        </button>
      </div>
      {preview ? (
        <div className={styles.previewBox}>
          {draft ? <Markdown>{draft}</Markdown> : <p className={styles.placeholder}>Nothing to preview.</p>}
        </div>
      ) : (
        <MentionTextarea
          className={styles.textarea}
          aria-label="Description (markdown)"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          rows={8}
          value={draft}
          readOnly={busy}
          // Opened by the button the person just pressed, so focus follows (not when a draft reopens it).
          autoFocus={openedByButton}
          placeholder="Write in markdown: **bold**, lists, [links](https://…)"
          onValueChange={edit}
          onKeyDown={onKeyDown}
        />
      )}
      {error && (
        <p id={errorId} className={styles.fieldError}>
          {error}
        </p>
      )}
      {conflict ? (
        <ConflictNotice
          field="description"
          current={task.description ? <Markdown>{task.description}</Markdown> : <em>(no description)</em>}
          busy={busy}
          onUseMine={() => void commit(task)}
          onDiscardMine={stop}
        />
      ) : (
        <div className={styles.actions}>
          <Button variant="primary" onClick={() => void commit()} disabled={busy}>
            Save
          </Button>
          <Button onClick={stop} disabled={busy}>
            Cancel
          </Button>
          <span className={styles.hint}>Ctrl/⌘ + Enter saves</span>
          {unsaved && <DraftMark />}
          <WillSendMark sending={busy} />
        </div>
      )}
    </section>
  );
}

/** The draft kept from before, unless it says what the description now says (then it is done with). */
function restoredDraft(slot: DraftSlot, task: Task) {
  const draft = slot.read();
  if (draft && draft.text === task.description) {
    slot.discard();
    return null;
  }
  return draft;
}

/** The task as it was when the draft began: its save then goes through If-Match against that version. */
function baseTask(task: Task, base: DraftBase | null): Task {
  return base ? { ...task, description: base.text, version: base.version } : task;
}
