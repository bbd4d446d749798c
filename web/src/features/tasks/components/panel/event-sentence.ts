import type { components } from '@api-spec/schema.d.ts';
import { PRIORITY_LABELS, type TaskPriority } from '../task-meta/priority.tsx';
import { STATUS_LABELS, type TaskStatus } from '../task-meta/status.tsx';
import { formatDueDate } from '../task-meta/due-date.ts';

type Event = components['schemas']['Event'];
type Task = components['schemas']['Task'];

/**
 * What a task event did, in words, after the actor's name: "moved it to In review". Null for events the
 * activity shows otherwise (comments appear as themselves) and for kinds this client does not know.
 */
export function eventSentence(event: Event, nameOf: (userId: string) => string): string | null {
  if (event.data.object !== 'task') return null;
  const task = event.data;
  switch (event.type) {
    case 'task.created':
      return 'created the task';
    case 'task.moved':
      return `moved it to ${STATUS_LABELS[task.status]}`;
    case 'task.updated': {
      const changes = Object.keys(event.previous_attributes ?? {})
        .map((field) => changeSentence(field, task, nameOf))
        .filter((sentence): sentence is string => sentence !== null);
      return changes.length ? joinAnd(changes) : null;
    }
    default:
      return null;
  }
}

function changeSentence(field: string, task: Task, nameOf: (userId: string) => string): string | null {
  switch (field) {
    case 'title':
      return `renamed it to “${task.title}”`;
    case 'description':
      return 'edited the description';
    case 'status':
      return `moved it to ${STATUS_LABELS[task.status as TaskStatus]}`;
    case 'priority':
      return `set the priority to ${PRIORITY_LABELS[task.priority as TaskPriority]}`;
    case 'assignee_id':
      return task.assignee_id ? `assigned it to ${nameOf(task.assignee_id)}` : 'unassigned it';
    case 'due_date':
      return task.due_date ? `set the due date to ${formatDueDate(task.due_date)}` : 'cleared the due date';
    case 'label_ids':
      return 'changed the labels';
    default:
      return null;
  }
}

function joinAnd(parts: string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1) ?? ''}`;
}
