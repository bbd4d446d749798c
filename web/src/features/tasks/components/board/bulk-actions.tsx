import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { components } from '@api-spec/schema.d.ts';
import { buttonClassName } from '../../../../components/ui/button.tsx';
import { Menu, MenuItem, MenuLabel, MenuSeparator } from '../../../../components/ui/menu.tsx';
import { toast } from '../../../../components/ui/toast.ts';
import { VisuallyHidden } from '../../../../components/ui/visually-hidden.tsx';
import { describeError } from '../../../../lib/api/api-error.ts';
import { afterBulk, deleteForBulk, patchForBulk, restoreForBulk } from '../../api/bulk-tasks.ts';
import { runBounded } from '../../bulk-run.ts';
import { LabelChip } from '../task-meta/label-chip.tsx';
import { PRIORITY_LABELS, PriorityIcon } from '../task-meta/priority.tsx';
import { TASK_PRIORITIES } from '@shared/vocabulary/spec-values.ts';
import { STATUS_LABELS, StatusIcon } from '../task-meta/status.tsx';
import { TASK_STATUSES } from '@shared/vocabulary/spec-values.ts';
import type { BoardPeople } from './board-people.ts';
import styles from './task-table.module.css';

type Task = components['schemas']['Task'];
type TaskPatch = components['schemas']['UpdateTask'];

/** How long the toast of a bulk deletion offers Undo, as a single one does. */
const UNDO_MS = 10_000;

interface BulkActionsProps {
  tasks: readonly Task[];
  people: BoardPeople;
  /** After an action: the tasks that failed stay selected, the rest not. */
  onFinished: (failedIds: string[]) => void;
}

/**
 * What the list's selection can be given at once: a status, a priority, an assignee, a label added or
 * taken away, or deletion with Undo. Each task is its own request, four at a time (decision 0041).
 */
export function BulkActions({ tasks, people, onFinished }: BulkActionsProps) {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<{ verb: string; finished: number; total: number } | null>(null);

  async function run(verb: string, done: string, work: (task: Task) => Promise<unknown>) {
    const total = tasks.length;
    setProgress({ verb, finished: 0, total });
    const outcome = await runBounded(tasks, work, (finished) => setProgress({ verb, finished, total }));
    setProgress(null);
    afterBulk(queryClient);
    if (outcome.failed.length > 0) {
      const why = outcome.failed.map(({ item, error }) => `${item.key} (${describeError(error)})`).join(', ');
      toast.error(`${outcome.failed.length} of ${total} not ${done}: ${why}`);
    }
    onFinished(outcome.failed.map(({ item }) => item.id));
    return outcome;
  }

  const patchAll = (patch: (task: Task) => TaskPatch) =>
    void run('Updating', 'updated', (task) => patchForBulk(task, patch(task)));

  const deleteAll = async () => {
    const { done } = await run('Deleting', 'deleted', deleteForBulk);
    if (done.length === 0) return;
    toast.success(`${done.length} ${done.length === 1 ? 'task' : 'tasks'} deleted`, {
      duration: UNDO_MS,
      action: {
        label: 'Undo',
        onClick: () =>
          void runBounded(done, restoreForBulk).then(({ failed }) => {
            afterBulk(queryClient);
            if (failed.length > 0) {
              toast.error(`Not restored: ${failed.map(({ item }) => item.key).join(', ')}`);
            }
          }),
      },
    });
  };

  const busy = progress !== null;
  const members = [...people.members.values()];
  const labels = [...people.labels.values()];
  return (
    <>
      {progress ? (
        <span role="status">
          {progress.verb} {progress.finished} of {progress.total}…
        </span>
      ) : (
        <span role="status">{tasks.length} selected</span>
      )}
      <BulkMenu label="Status" busy={busy}>
        {TASK_STATUSES.map((status) => (
          <MenuItem key={status} onSelect={() => patchAll(() => ({ status }))}>
            <StatusIcon status={status} /> {STATUS_LABELS[status]}
          </MenuItem>
        ))}
      </BulkMenu>
      <BulkMenu label="Priority" busy={busy}>
        {[...TASK_PRIORITIES].reverse().map((priority) => (
          <MenuItem key={priority} onSelect={() => patchAll(() => ({ priority }))}>
            <PriorityIcon priority={priority} /> {PRIORITY_LABELS[priority]}
          </MenuItem>
        ))}
      </BulkMenu>
      <BulkMenu label="Assignee" busy={busy}>
        <MenuItem onSelect={() => patchAll(() => ({ assignee_id: null }))}>Unassigned</MenuItem>
        {members.length > 0 && <MenuSeparator />}
        {members.map((member) => (
          <MenuItem key={member.id} onSelect={() => patchAll(() => ({ assignee_id: member.id }))}>
            {member.name}
          </MenuItem>
        ))}
      </BulkMenu>
      <BulkMenu label="Labels" busy={busy}>
        {labels.length === 0 && <MenuLabel>The workspace has no labels yet</MenuLabel>}
        {labels.length > 0 && <MenuLabel>Add</MenuLabel>}
        {labels.map((label) => (
          <MenuItem
            key={`add-${label.id}`}
            onSelect={() => patchAll((task) => ({ label_ids: [...new Set([...task.label_ids, label.id])] }))}
          >
            <VisuallyHidden>Add </VisuallyHidden>
            <LabelChip name={label.name} color={label.color} />
          </MenuItem>
        ))}
        {labels.length > 0 && <MenuSeparator />}
        {labels.length > 0 && <MenuLabel>Remove</MenuLabel>}
        {labels.map((label) => (
          <MenuItem
            key={`remove-${label.id}`}
            onSelect={() =>
              patchAll((task) => ({ label_ids: task.label_ids.filter((id) => id !== label.id) }))
            }
          >
            <VisuallyHidden>Remove </VisuallyHidden>
            <LabelChip name={label.name} color={label.color} />
          </MenuItem>
        ))}
      </BulkMenu>
      <button
        type="button"
        className={`${buttonClassName('secondary')} ${styles.bulkButton}`}
        disabled={busy}
        onClick={() => void deleteAll()}
      >
        Delete
      </button>
    </>
  );
}

function BulkMenu({ label, busy, children }: { label: string; busy: boolean; children: ReactNode }) {
  return (
    <Menu
      label={label}
      trigger={
        <button
          type="button"
          className={`${buttonClassName('secondary')} ${styles.bulkButton}`}
          disabled={busy}
        >
          {label}
        </button>
      }
    >
      {children}
    </Menu>
  );
}
