import type { components } from '@api-spec/schema.d.ts';
import { describeTaskChange, THIS_TASK, type TaskChangeWording } from '../../../../lib/events/task-change.ts';
import { PRIORITY_LABELS } from '../task-meta/priority.tsx';
import { STATUS_LABELS } from '../task-meta/status.tsx';

type Event = components['schemas']['Event'];

/**
 * What a task event did, in words, after the actor's name: "moved it to In review". Null for events the
 * activity shows otherwise (comments appear as themselves) and for kinds this client does not know.
 */
export function eventSentence(event: Event, nameOf: (userId: string) => string): string | null {
  if (event.data.object === 'attachment') {
    const verb = event.type === 'attachment.deleted' ? 'removed' : 'attached';
    return `${verb} ${event.data.file_name}`;
  }
  if (event.data.object !== 'task') return null;
  const task = event.data;
  const wording: TaskChangeWording = { statusLabels: STATUS_LABELS, priorityLabels: PRIORITY_LABELS, nameOf };
  switch (event.type) {
    case 'task.created':
      return 'created the task';
    case 'task.restored':
      return 'restored the task';
    case 'task.moved':
      return describeTaskChange('status', task, THIS_TASK, wording);
    case 'task.updated': {
      const changes = Object.keys(event.previous_attributes ?? {})
        .map((field) => describeTaskChange(field, task, THIS_TASK, wording))
        .filter((sentence): sentence is string => sentence !== null);
      return changes.length ? joinAnd(changes) : null;
    }
    default:
      return null;
  }
}

function joinAnd(parts: string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1) ?? ''}`;
}
