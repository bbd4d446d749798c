import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { Button, buttonClassName } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { paths } from '../../config/paths.ts';
import { useMe } from '../../features/account/api/get-me.ts';
import { AttachmentsSection } from '../../features/attachments/components/attachments-section.tsx';
import { WatchControl } from '../../features/notifications/components/watch-control.tsx';
import { useCreateLabel } from '../../features/labels/api/create-label.ts';
import { useLabels } from '../../features/labels/api/list-labels.ts';
import { useMembers } from '../../features/members/api/list-members.ts';
import { useTaskByKey } from '../../features/tasks/api/get-task-by-key.ts';
import { taskKeys } from '../../features/tasks/api/query-keys.ts';
import {
  canEditTasks,
  canModerate,
  memberName,
  type TaskWorkspace,
} from '../../features/tasks/components/panel/task-context.ts';
import { TaskView, TaskViewSkeleton } from '../../features/tasks/components/panel/task-view.tsx';
import { useWorkspace } from '../../features/workspaces/api/get-workspace.ts';
import { ApiError, describeError } from '../../lib/api/api-error.ts';
import { useAuthState } from '../../lib/auth/auth-session.ts';
import { useSharePlace } from '../../lib/realtime/live-store.ts';
import { useTaskOpenedOnItsOwn } from '../task-view-mode.ts';
import styles from './task.module.css';

const route = getRouteApi('/signed-in/w/$slug/p/$key/t/$number');

/** `/w/:slug/p/:key/t/:number`: the task panel over the board, or a full page when opened on its own. */
export function TaskScreen() {
  const { slug, key, number } = route.useParams();
  const taskKey = `${key}-${number}`;
  const onItsOwn = useTaskOpenedOnItsOwn();
  const navigate = useNavigate();
  // The others on the board see which task this person has open.
  useSharePlace('task_key', taskKey);

  const toBoard = () =>
    void navigate({ to: paths.board, params: { slug, key }, search: (previous) => previous });

  const content = (
    <TaskContent
      slug={slug}
      projectKey={key}
      taskKey={taskKey}
      onDeleted={toBoard}
      layout={onItsOwn ? 'page' : 'sheet'}
    />
  );

  if (onItsOwn) {
    return (
      <TaskPage slug={slug} projectKey={key} taskKey={taskKey} onClose={toBoard}>
        {content}
      </TaskPage>
    );
  }
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) toBoard();
      }}
      title={taskKey}
      variant="sheet"
      // Esc inside a field being edited cancels the edit, not the panel.
      onEscapeKeyDown={(event) => {
        if (event.target instanceof Element && event.target.closest('[data-editing]')) event.preventDefault();
      }}
      // Back to the card the panel was opened from.
      onCloseAutoFocus={(event) => {
        const card = document.querySelector<HTMLElement>(`[data-task-key="${taskKey}"]`);
        if (card) {
          event.preventDefault();
          card.focus();
        }
      }}
    >
      {content}
    </Dialog>
  );
}

/** The task as a page: a way back to the board above it; Esc goes back too. */
function TaskPage({
  slug,
  projectKey,
  taskKey,
  onClose,
  children,
}: {
  slug: string;
  projectKey: string;
  taskKey: string;
  onClose: () => void;
  children: React.ReactNode;
}) {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      const target = event.target instanceof Element ? event.target : null;
      // Not while editing, nor when Esc closes a menu, a popover or a dialog over the page.
      if (target?.closest('[data-editing], [role="dialog"], [role="alertdialog"], [role="menu"]')) return;
      if (document.querySelector('[data-radix-popper-content-wrapper], [role="alertdialog"]')) return;
      onClose();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [onClose]);

  return (
    <div className={styles.page}>
      <nav className={styles.breadcrumb} aria-label="Breadcrumb">
        <Link to={paths.board} params={{ slug, key: projectKey }} className={styles.crumb}>
          {projectKey} board
        </Link>
        <span aria-hidden="true">/</span>
        <span aria-current="page">{taskKey}</span>
      </nav>
      {children}
    </div>
  );
}

interface TaskContentProps {
  slug: string;
  projectKey: string;
  taskKey: string;
  layout: 'sheet' | 'page';
  onDeleted: () => void;
}

/** Reads the task and what the panel needs of the workspace, and shows each state. */
function TaskContent({ slug, projectKey, taskKey, layout, onDeleted }: TaskContentProps) {
  const task = useTaskByKey(slug, taskKey);
  const workspace = useWorkspace(slug);
  const members = useMembers(slug);
  const labels = useLabels(slug);
  const me = useMe();
  const session = useAuthState().session;
  const createLabel = useCreateLabel(slug);
  const queryClient = useQueryClient();

  if (task.error instanceof ApiError && task.error.status === 404) {
    return (
      <div className={styles.state} role="alert">
        <h2 className={styles.stateTitle}>{taskKey} does not exist</h2>
        <p className="muted">It may have been deleted, or the link is mistyped.</p>
        <Link to={paths.board} params={{ slug, key: projectKey }} className={buttonClassName('primary')}>
          Back to the {projectKey} board
        </Link>
      </div>
    );
  }
  const failed = task.error ?? workspace.error ?? members.error ?? labels.error;
  if (failed) {
    return (
      <div className={styles.state} role="alert">
        <h2 className={styles.stateTitle}>Could not load {taskKey}</h2>
        <p className="muted">{describeError(failed)}</p>
        <Button
          variant="primary"
          onClick={() => {
            void task.refetch();
            void workspace.refetch();
            void members.refetch();
            void labels.refetch();
          }}
        >
          Try again
        </Button>
      </div>
    );
  }
  if (!task.data || !workspace.data || !members.data || !labels.data) return <TaskViewSkeleton />;

  const context: TaskWorkspace = {
    slug,
    role: workspace.data.role,
    // The session names the person before /me answers (their drafts are keyed by it).
    meId: me.data?.id ?? session?.user.id ?? null,
    members: members.data,
    labels: labels.data,
    createLabel: (label) => createLabel.mutateAsync(label),
  };
  const taskId = task.data.id;
  const attachments = (
    <AttachmentsSection
      taskId={taskId}
      canAttach={canEditTasks(context.role)}
      canDeleteAny={canModerate(context.role)}
      meId={context.meId}
      nameOf={(userId) => memberName(context.members, userId)}
      onChanged={() => void queryClient.invalidateQueries({ queryKey: taskKeys.events(taskId) })}
    />
  );
  return (
    <TaskView
      // Another task opened in the same panel starts afresh: no editor or draft carries over.
      key={taskId}
      task={task.data}
      workspace={context}
      layout={layout}
      onDeleted={onDeleted}
      attachments={attachments}
      watch={<WatchControl taskId={taskId} />}
    />
  );
}
