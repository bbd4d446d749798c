import { toast } from 'sonner';
import type { TaskPatch } from '../../api/update-task.ts';
import { PRIORITY_LABELS, PriorityIcon } from '../task-meta/priority.tsx';
import { TASK_PRIORITIES } from '@shared/vocabulary/spec-values.ts';
import { STATUS_LABELS, StatusIcon } from '../task-meta/status.tsx';
import { TASK_STATUSES } from '@shared/vocabulary/spec-values.ts';
import { Avatar, EmptyAvatar } from '../../../../components/ui/avatar.tsx';
import { DueDateField } from './due-date-field.tsx';
import { LabelPicker } from './label-picker.tsx';
import { PropertyMenu, type PropertyOption } from './property-menu.tsx';
import { canEditTasks, type Task, type TaskWorkspace } from './task-context.ts';
import type { SaveOutcome } from './use-task-saver.ts';
import styles from './panel.module.css';

const UNASSIGNED = 'unassigned';

interface TaskPropertiesProps {
  task: Task;
  workspace: TaskWorkspace;
  save: (task: Task, patch: TaskPatch, done: string) => Promise<SaveOutcome>;
}

/** Status, priority, assignee, due date and labels: each a picker that saves on choosing. */
export function TaskProperties({ task, workspace, save }: TaskPropertiesProps) {
  const canEdit = canEditTasks(workspace.role);

  const change = async (patch: TaskPatch, done: string) => {
    const outcome = await save(task, patch, done);
    // A one-click choice loses nothing typed: say what happened and show their version (already refetched).
    if (outcome.kind === 'conflict') {
      toast.error(
        'Someone else changed this task first. It now shows their version; choose again if needed.',
      );
    } else if (outcome.kind === 'failed') {
      toast.error(outcome.message);
    }
  };

  const statusOptions: PropertyOption[] = TASK_STATUSES.map((status) => ({
    value: status,
    label: STATUS_LABELS[status],
    icon: <StatusIcon status={status} />,
  }));
  const priorityOptions: PropertyOption[] = TASK_PRIORITIES.map((priority) => ({
    value: priority,
    label: PRIORITY_LABELS[priority],
    icon: <PriorityIcon priority={priority} />,
  }));
  const assignable = workspace.members.filter(
    (member) => member.role !== 'viewer' || member.user_id === task.assignee_id,
  );
  const assigneeOptions: PropertyOption[] = [
    { value: UNASSIGNED, label: 'Unassigned', icon: <EmptyAvatar /> },
    ...assignable.map((member) => ({
      value: member.user_id,
      label: member.display_name,
      icon: <Avatar name={member.display_name} id={member.user_id} src={member.avatar_url} decorative />,
    })),
  ];
  const assignee = task.assignee_id ?? UNASSIGNED;
  if (!assigneeOptions.some((option) => option.value === assignee)) {
    assigneeOptions.push({ value: assignee, label: 'Former member' });
  }

  const readOnly = (options: PropertyOption[], value: string) => {
    const option = options.find((o) => o.value === value);
    return (
      <span className={styles.propertyValue}>
        {option?.icon}
        <span className={styles.propertyText}>{option?.label ?? value}</span>
      </span>
    );
  };

  return (
    <dl className={styles.properties}>
      <dt>Status</dt>
      <dd>
        {canEdit ? (
          <PropertyMenu
            name="Status"
            value={task.status}
            options={statusOptions}
            onChange={(status) => {
              const next = TASK_STATUSES.find((s) => s === status);
              if (next) void change({ status: next }, `Moved to ${STATUS_LABELS[next]}`);
            }}
          />
        ) : (
          readOnly(statusOptions, task.status)
        )}
      </dd>
      <dt>Priority</dt>
      <dd>
        {canEdit ? (
          <PropertyMenu
            name="Priority"
            value={task.priority}
            options={priorityOptions}
            onChange={(priority) => {
              const next = TASK_PRIORITIES.find((p) => p === priority);
              if (next) void change({ priority: next }, `Priority set to ${PRIORITY_LABELS[next]}`);
            }}
          />
        ) : (
          readOnly(priorityOptions, task.priority)
        )}
      </dd>
      <dt>Assignee</dt>
      <dd>
        {canEdit ? (
          <PropertyMenu
            name="Assignee"
            value={assignee}
            options={assigneeOptions}
            onChange={(value) => {
              const assignee_id = value === UNASSIGNED ? null : value;
              const name = assigneeOptions.find((o) => o.value === value)?.label ?? 'them';
              void change({ assignee_id }, assignee_id ? `Assigned to ${name}` : 'Unassigned');
            }}
          />
        ) : (
          readOnly(assigneeOptions, assignee)
        )}
      </dd>
      <dt>Due date</dt>
      <dd>
        <DueDateField
          value={task.due_date}
          canEdit={canEdit}
          onChange={(due_date) => void change({ due_date }, due_date ? 'Due date set' : 'Due date cleared')}
        />
      </dd>
      <dt>Labels</dt>
      <dd>
        <LabelPicker
          labels={workspace.labels}
          selected={task.label_ids}
          canEdit={canEdit}
          createLabel={workspace.createLabel}
          onChange={(label_ids) => void change({ label_ids }, 'Labels saved')}
        />
      </dd>
    </dl>
  );
}
