import type { components } from '@api-spec/schema.d.ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { describeEvent, type EventWording } from './describe-event.ts';

type Event = components['schemas']['Event'];
type EventType = components['schemas']['EventType'];

const MAYA = '00000000-0000-4000-8000-00000000000a';
const LEO = '00000000-0000-4000-8000-00000000000b';
const GONE = '00000000-0000-4000-8000-00000000000c';
const TASK_ID = '00000000-0000-4000-8000-0000000000f1';
const WORKSPACE_ID = '00000000-0000-4000-8000-0000000000e1';
const PROJECT_ID = '00000000-0000-4000-8000-0000000000d1';
const AT = '2026-11-22T09:00:00.000Z';

const wording: EventWording = {
  names: new Map([
    [MAYA, 'Maya Patel'],
    [LEO, 'Leo Martin'],
  ]),
  taskKeys: new Map([[TASK_ID, 'OPS-3']]),
  statusLabels: {
    backlog: 'Backlog',
    todo: 'Todo',
    in_progress: 'In progress',
    in_review: 'In review',
    done: 'Done',
    canceled: 'Canceled',
  },
  priorityLabels: { none: 'No priority', low: 'Low', medium: 'Medium', high: 'High', urgent: 'Urgent' },
};

const task = {
  object: 'task',
  id: TASK_ID,
  project_id: PROJECT_ID,
  key: 'WEB-12',
  number: 12,
  title: 'Fix the login form',
  description: '',
  status: 'in_review',
  priority: 'high',
  assignee_id: LEO,
  due_date: '2026-12-01',
  position: 'a0',
  label_ids: [],
  checklist: { done: 0, total: 0 },
  created_by: MAYA,
  completed_at: null,
  version: 2,
  created_at: AT,
  updated_at: AT,
} as const satisfies components['schemas']['Task'];

const comment = {
  object: 'comment',
  id: '00000000-0000-4000-8000-0000000000c1',
  task_id: TASK_ID,
  author_id: LEO,
  body: 'Looks good',
  deleted: false,
  edited_at: null,
  deleted_at: null,
  version: 1,
  created_at: AT,
  updated_at: AT,
} as const satisfies components['schemas']['Comment'];

const project = {
  object: 'project',
  id: PROJECT_ID,
  workspace_id: WORKSPACE_ID,
  key: 'WEB',
  name: 'Website',
  description: '',
  archived: false,
  archived_at: null,
  created_by: MAYA,
  version: 1,
  created_at: AT,
  updated_at: AT,
} as const satisfies components['schemas']['Project'];

const label = {
  object: 'label',
  id: '00000000-0000-4000-8000-0000000000b1',
  workspace_id: WORKSPACE_ID,
  name: 'Bug',
  color: '#d73a4a',
  created_by: MAYA,
  version: 1,
  created_at: AT,
  updated_at: AT,
} as const satisfies components['schemas']['Label'];

const member = {
  object: 'member',
  user_id: LEO,
  workspace_id: WORKSPACE_ID,
  role: 'admin',
  display_name: 'Leo Martin',
  version: 1,
  created_at: AT,
  updated_at: AT,
} as const satisfies components['schemas']['EventMember'];

const attachment = {
  object: 'attachment',
  id: '00000000-0000-4000-8000-0000000000a1',
  task_id: TASK_ID,
  file_name: 'login-error.png',
  content_type: 'image/png',
  size_bytes: 48213,
  status: 'ready',
  uploaded_by: MAYA,
  ready_at: AT,
  version: 2,
  created_at: AT,
  updated_at: AT,
} as const satisfies components['schemas']['Attachment'];

function event(
  type: EventType,
  data: Event['data'],
  previous: Record<string, unknown> | null = null,
  actor: string | null = MAYA,
): Event {
  return {
    object: 'event',
    id: '1',
    seq: 1,
    type,
    created_at: AT,
    actor: { type: actor === null ? 'system' : 'user', user_id: actor, api_token_id: null },
    workspace_id: WORKSPACE_ID,
    project_id: PROJECT_ID,
    task_id:
      data.object === 'task' || data.object === 'comment' || data.object === 'attachment' ? TASK_ID : null,
    data,
    previous_attributes: previous,
  };
}

// One case per event type the API emits (the Record fails to compile when openapi.yaml adds one).
const oneOfEachType: Record<EventType, [Event, string]> = {
  'task.created': [event('task.created', task), 'Maya Patel created WEB-12 “Fix the login form”'],
  'task.updated': [
    event('task.updated', task, { title: 'Login' }),
    'Maya Patel renamed WEB-12 to “Fix the login form”',
  ],
  'task.moved': [
    event('task.moved', task, { status: 'todo', position: 'a1' }),
    'Maya Patel moved WEB-12 to In review',
  ],
  'task.deleted': [event('task.deleted', task), 'Maya Patel deleted WEB-12 “Fix the login form”'],
  'task.restored': [event('task.restored', task), 'Maya Patel restored WEB-12 “Fix the login form”'],
  'comment.created': [event('comment.created', comment, null, LEO), 'Leo Martin commented on OPS-3'],
  'comment.updated': [
    event('comment.updated', comment, { body: 'Looks ok' }, LEO),
    'Leo Martin edited a comment on OPS-3',
  ],
  'comment.deleted': [
    event('comment.deleted', { ...comment, body: null, deleted: true }),
    'Maya Patel deleted a comment on OPS-3',
  ],
  'project.created': [event('project.created', project), 'Maya Patel created the project Website (WEB)'],
  'project.updated': [
    event('project.updated', project, { name: 'Site' }),
    'Maya Patel renamed the project Site to Website',
  ],
  'project.archived': [
    event('project.archived', { ...project, archived: true }, { archived: false }),
    'Maya Patel archived the project Website',
  ],
  'project.unarchived': [
    event('project.unarchived', project, { archived: true }),
    'Maya Patel restored the project Website',
  ],
  'project.deleted': [event('project.deleted', project), 'Maya Patel deleted the project Website'],
  'label.created': [event('label.created', label), 'Maya Patel created the label Bug'],
  'label.updated': [
    event('label.updated', label, { name: 'Defect' }),
    'Maya Patel renamed the label Defect to Bug',
  ],
  'label.deleted': [event('label.deleted', label), 'Maya Patel deleted the label Bug'],
  'member.added': [event('member.added', member), 'Maya Patel added Leo Martin as an admin'],
  'member.updated': [
    event('member.updated', member, { role: 'member' }),
    'Maya Patel made Leo Martin an admin',
  ],
  'member.removed': [event('member.removed', member), 'Maya Patel removed Leo Martin from the workspace'],
  'attachment.added': [event('attachment.added', attachment), 'Maya Patel attached login-error.png to OPS-3'],
  'attachment.deleted': [
    event('attachment.deleted', attachment),
    'Maya Patel removed the attachment login-error.png from OPS-3',
  ],
};

describe('describeEvent', () => {
  it.each(Object.entries(oneOfEachType))('words %s', (_type, [given, words]) => {
    expect(describeEvent(given, wording)).toBe(words);
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('words each change of a task by the field that changed', () => {
    // Due dates are worded relative to today, as everywhere in the app.
    vi.useFakeTimers({ now: new Date(2026, 10, 22, 9), toFake: ['Date'] });
    const updated = (previous: Record<string, unknown>, data: Partial<components['schemas']['Task']> = {}) =>
      describeEvent(event('task.updated', { ...task, ...data }, previous), wording);

    expect(updated({ status: 'todo', completed_at: null })).toBe('Maya Patel moved WEB-12 to In review');
    expect(updated({ priority: 'low' })).toBe('Maya Patel set the priority of WEB-12 to High');
    expect(updated({ assignee_id: null })).toBe('Maya Patel assigned WEB-12 to Leo Martin');
    expect(updated({ assignee_id: LEO }, { assignee_id: null })).toBe('Maya Patel unassigned WEB-12');
    expect(updated({ due_date: null })).toBe('Maya Patel set the due date of WEB-12 to Dec 1');
    expect(updated({ due_date: '2026-12-01' }, { due_date: null })).toBe(
      'Maya Patel removed the due date of WEB-12',
    );
    expect(updated({ description: 'old' })).toBe('Maya Patel edited the description of WEB-12');
    expect(updated({ description: 'old', checklist: { done: 0, total: 1 } })).toBe(
      'Maya Patel edited the description of WEB-12',
    );
    expect(updated({ label_ids: ['x'] })).toBe('Maya Patel changed the labels of WEB-12');
    expect(updated({ title: 'Login', priority: 'low' })).toBe('Maya Patel updated WEB-12');
  });

  it('tells a reorder within a column from a move to another', () => {
    expect(describeEvent(event('task.moved', task, { position: 'a1' }), wording)).toBe(
      'Maya Patel reordered WEB-12 in In review',
    );
  });

  it('words a project whose key changed, and a label whose colour changed', () => {
    expect(describeEvent(event('project.updated', project, { key: 'SITE' }), wording)).toBe(
      'Maya Patel changed the key of Website from SITE to WEB',
    );
    expect(describeEvent(event('project.updated', project, { description: 'x' }), wording)).toBe(
      'Maya Patel updated the project Website',
    );
    expect(describeEvent(event('label.updated', label, { color: '#000000' }), wording)).toBe(
      'Maya Patel changed the label Bug',
    );
  });

  it('words what members do to themselves: creating the workspace, joining and leaving', () => {
    expect(describeEvent(event('member.added', { ...member, user_id: MAYA, role: 'owner' }), wording)).toBe(
      'Maya Patel created the workspace',
    );
    expect(describeEvent(event('member.added', member, null, LEO), wording)).toBe(
      'Leo Martin joined the workspace',
    );
    expect(describeEvent(event('member.removed', member, null, LEO), wording)).toBe(
      'Leo Martin left the workspace',
    );
  });

  it('names Tasklane for system changes, someone for people who left, and a task it cannot name', () => {
    expect(describeEvent(event('task.updated', task, { assignee_id: GONE }, null), wording)).toBe(
      'Tasklane assigned WEB-12 to Leo Martin',
    );
    expect(describeEvent(event('task.created', task, null, GONE), wording)).toBe(
      'Someone created WEB-12 “Fix the login form”',
    );
    const elsewhere = { ...event('comment.created', comment), task_id: GONE };
    expect(describeEvent(elsewhere, wording)).toBe('Maya Patel commented on a task');
    const unnamed = { ...member, user_id: GONE, display_name: null };
    expect(describeEvent(event('member.removed', unnamed), wording)).toBe(
      'Maya Patel removed a member from the workspace',
    );
  });
});
