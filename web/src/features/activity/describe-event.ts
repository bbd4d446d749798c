import type { components } from '@api-spec/schema.d.ts';
import { describeTaskChange, taskByKey, type TaskChangeWording } from '../../lib/events/task-change.ts';

type Event = components['schemas']['Event'];
type Task = components['schemas']['Task'];
type Project = components['schemas']['Project'];
type Label = components['schemas']['Label'];
type EventMember = components['schemas']['EventMember'];
type Previous = Record<string, unknown>;

/** What an event's sentence needs beyond the event: names of people and tasks, and the words for values. */
export interface EventWording extends Pick<TaskChangeWording, 'statusLabels' | 'priorityLabels'> {
  /** Display names by user id (the workspace's members). */
  names: ReadonlyMap<string, string>;
  /** Task keys (`OPS-3`) by task id, for comment events, whose data holds no key. */
  taskKeys: ReadonlyMap<string, string>;
}

/** An event of the change feed in words: "Maya Patel moved WEB-12 to In review". */
export function describeEvent(event: Event, wording: EventWording): string {
  const actor = actorName(event, wording);
  const previous = event.previous_attributes ?? {};
  const { data } = event;
  switch (data.object) {
    case 'task':
      return `${actor} ${taskAction(event.type, data, previous, wording)}`;
    case 'comment': {
      const taskKey = (event.task_id && wording.taskKeys.get(event.task_id)) || 'a task';
      if (event.type === 'comment.created') return `${actor} commented on ${taskKey}`;
      if (event.type === 'comment.deleted') return `${actor} deleted a comment on ${taskKey}`;
      return `${actor} edited a comment on ${taskKey}`;
    }
    case 'project':
      return `${actor} ${projectAction(event.type, data, previous)}`;
    case 'label':
      return `${actor} ${labelAction(event.type, data, previous)}`;
    case 'member':
      return memberSentence(event, data, actor, wording);
    case 'attachment': {
      const taskKey = (event.task_id && wording.taskKeys.get(event.task_id)) || 'a task';
      if (event.type === 'attachment.deleted')
        return `${actor} removed the attachment ${data.file_name} from ${taskKey}`;
      return `${actor} attached ${data.file_name} to ${taskKey}`;
    }
  }
}

function actorName({ actor }: Event, { names }: EventWording): string {
  if (actor.type === 'system') return 'Tasklane';
  return (actor.user_id && names.get(actor.user_id)) || 'Someone';
}

const FOLLOWING_FIELDS = new Set(['position', 'completed_at', 'checklist']);

function taskAction(type: Event['type'], task: Task, previous: Previous, wording: EventWording): string {
  const { key } = task;
  if (type === 'task.created') return `created ${key} “${task.title}”`;
  if (type === 'task.deleted') return `deleted ${key} “${task.title}”`;
  if (type === 'task.restored') return `restored ${key} “${task.title}”`;
  // The position, completion time and checklist counts follow the status and the description.
  const changed = Object.keys(previous).filter((field) => !FOLLOWING_FIELDS.has(field));
  if (changed.length === 0) return `reordered ${key} in ${wording.statusLabels[task.status]}`;
  const [field] = changed;
  if (changed.length > 1 || field === undefined) return `updated ${key}`;
  const nameOf = (userId: string) => wording.names.get(userId) ?? 'someone';
  return describeTaskChange(field, task, taskByKey(key), { ...wording, nameOf }) ?? `updated ${key}`;
}

function projectAction(type: Event['type'], project: Project, previous: Previous): string {
  switch (type) {
    case 'project.created':
      return `created the project ${project.name} (${project.key})`;
    case 'project.archived':
      return `archived the project ${project.name}`;
    case 'project.unarchived':
      return `restored the project ${project.name}`;
    case 'project.deleted':
      return `deleted the project ${project.name}`;
  }
  if (typeof previous['key'] === 'string') {
    return `changed the key of ${project.name} from ${previous['key']} to ${project.key}`;
  }
  if (typeof previous['name'] === 'string')
    return `renamed the project ${previous['name']} to ${project.name}`;
  return `updated the project ${project.name}`;
}

function labelAction(type: Event['type'], label: Label, previous: Previous): string {
  if (type === 'label.created') return `created the label ${label.name}`;
  if (type === 'label.deleted') return `deleted the label ${label.name}`;
  if (typeof previous['name'] === 'string') return `renamed the label ${previous['name']} to ${label.name}`;
  return `changed the label ${label.name}`;
}

function memberSentence(event: Event, member: EventMember, actor: string, { names }: EventWording): string {
  const self = event.actor.user_id === member.user_id;
  const name = member.display_name ?? names.get(member.user_id) ?? 'a member';
  const role = `${/^[aeiou]/.test(member.role) ? 'an' : 'a'} ${member.role}`;
  if (event.type === 'member.added') {
    if (self) return `${actor} ${member.role === 'owner' ? 'created' : 'joined'} the workspace`;
    return `${actor} added ${name} as ${role}`;
  }
  if (event.type === 'member.updated') return `${actor} made ${name} ${role}`;
  return self ? `${actor} left the workspace` : `${actor} removed ${name} from the workspace`;
}
