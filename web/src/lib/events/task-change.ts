import type { components } from '@api-spec/schema.d.ts';
import { formatDueDate } from '../dates/due-date.ts';

type Task = components['schemas']['Task'];

/** The words a task change needs that only the caller knows: the labels of values and people's names. */
export interface TaskChangeWording {
  statusLabels: Readonly<Record<components['schemas']['TaskStatus'], string>>;
  priorityLabels: Readonly<Record<components['schemas']['TaskPriority'], string>>;
  /** A person's display name, with the caller's word for someone it cannot name. */
  nameOf: (userId: string) => string;
}

/** Whom a sentence is about: a task named by its key in a feed, or "it" where the task is understood. */
export interface TaskSubject {
  /** The task as the object of a verb: "WEB-12", "it". */
  readonly ref: string;
  /** One of the task's attributes: "the due date of WEB-12", or "the due date". */
  the(attribute: string): string;
}

export function taskByKey(key: string): TaskSubject {
  return { ref: key, the: (attribute) => `the ${attribute} of ${key}` };
}

export const THIS_TASK: TaskSubject = { ref: 'it', the: (attribute) => `the ${attribute}` };

/**
 * What a change of one field did, in words, after the actor's name: "moved WEB-12 to In review", "set the
 * priority to High". Null for fields that are not worded (the position, the completion time, new fields).
 */
export function describeTaskChange(
  field: string,
  task: Task,
  subject: TaskSubject,
  wording: TaskChangeWording,
): string | null {
  switch (field) {
    case 'status':
      return `moved ${subject.ref} to ${wording.statusLabels[task.status]}`;
    case 'title':
      return `renamed ${subject.ref} to “${task.title}”`;
    case 'description':
      return `edited ${subject.the('description')}`;
    case 'priority':
      return `set ${subject.the('priority')} to ${wording.priorityLabels[task.priority]}`;
    case 'assignee_id':
      return task.assignee_id === null
        ? `unassigned ${subject.ref}`
        : `assigned ${subject.ref} to ${wording.nameOf(task.assignee_id)}`;
    case 'due_date':
      return task.due_date === null
        ? `removed ${subject.the('due date')}`
        : `set ${subject.the('due date')} to ${formatDueDate(task.due_date)}`;
    case 'label_ids':
      return `changed ${subject.the('labels')}`;
    default:
      return null;
  }
}
