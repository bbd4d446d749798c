import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../../components/ui/button.tsx';
import { classNames } from '../../../../components/ui/class-names.ts';
import { describeError } from '../../../../lib/api/api-error.ts';
import { useDeleteTask } from '../../api/delete-task.ts';
import { restoreTask } from '../../api/restore-task.ts';
import { useOpenTask } from '../../use-open-task.ts';
import { ConfirmDialog } from '../../../../components/ui/confirm-dialog.tsx';
import { TaskActivity } from './task-activity.tsx';
import { draftPlace } from '../../drafts/draft-storage.ts';
import { canEditTasks, type Task, type TaskWorkspace } from './task-context.ts';
import { MentionMembers } from '../mentions/mention-members.ts';
import { TaskDescription } from './task-description.tsx';
import { TaskProperties } from './task-properties.tsx';
import { TaskTitle } from './task-title.tsx';
import { useTaskSaver } from './use-task-saver.ts';
import styles from './panel.module.css';

interface TaskViewProps {
  task: Task;
  workspace: TaskWorkspace;
  /** `sheet` stacks everything in one column; `page` puts the properties in a side column when wide. */
  layout: 'sheet' | 'page';
  onDeleted: () => void;
  /** The task's files, from the attachments feature (the route composes it), above the activity. */
  attachments?: ReactNode;
  /** Watching the task and who watches, from the notifications feature (the route composes it). */
  watch?: ReactNode;
}

/** How long the toast of a deletion offers Undo. */
const UNDO_MS = 10_000;

/** A task with everything about it: title, properties, description, files, activity and comments. */
export function TaskView({ task, workspace, layout, onDeleted, attachments, watch }: TaskViewProps) {
  const { save } = useTaskSaver(workspace.slug, task.key);
  const canEdit = canEditTasks(workspace.role);
  const remove = useDeleteTask();
  const queryClient = useQueryClient();
  const { open, onBoard } = useOpenTask();

  // Undo brings the card back, and the panel too while the person is still on the task's board.
  const undo = () =>
    restoreTask(queryClient, workspace.slug, task).then(
      (restored) => {
        if (onBoard(workspace.slug, restored.key)) open(workspace.slug, restored.key);
      },
      (error: unknown) => toast.error(`${task.key} was not restored: ${describeError(error)}`),
    );

  const onDelete = () =>
    remove.mutate(task, {
      onSuccess: () => {
        toast.success(`${task.key} deleted`, {
          duration: UNDO_MS,
          action: { label: 'Undo', onClick: () => void undo() },
        });
        onDeleted();
      },
      onError: (error) => toast.error(describeError(error)),
    });

  return (
    // Mentions read and are picked from the workspace's current members.
    <MentionMembers value={workspace.members}>
      <div className={classNames(styles.view, styles[layout])}>
        <div className={styles.titleArea}>
          <TaskTitle task={task} canEdit={canEdit} save={save} />
        </div>
        <aside className={styles.side} aria-label="Properties">
          <TaskProperties task={task} workspace={workspace} save={save} />
          {watch && <div className={styles.watch}>{watch}</div>}
          {canEdit && (
            <ConfirmDialog
              trigger={
                <Button className={styles.deleteButton} disabled={remove.isPending}>
                  Delete task
                </Button>
              }
              title={`Delete ${task.key}?`}
              description={`“${task.title}” is deleted with its comments and files. You can undo this for ${UNDO_MS / 1000} seconds.`}
              confirm="Delete task"
              onConfirm={onDelete}
            />
          )}
        </aside>
        <div className={styles.bodyArea}>
          <TaskDescription
            task={task}
            canEdit={canEdit}
            save={save}
            draftPlace={draftPlace(workspace.meId, workspace.slug, task.id)}
          />
          {attachments}
          <TaskActivity task={task} workspace={workspace} />
        </div>
      </div>
    </MentionMembers>
  );
}

/** The shape of the task while it loads, so the panel does not jump when it arrives. */
export function TaskViewSkeleton() {
  return (
    <div className={styles.view} aria-busy="true" aria-label="Loading the task">
      <div className={styles.titleArea}>
        <div className={classNames(styles.skeleton, styles.skeletonTitle)} />
      </div>
      <div className={styles.bodyArea}>
        <div className={styles.skeleton} />
        <div className={styles.skeleton} />
      </div>
    </div>
  );
}
