import { describe, expect, test } from 'vitest';
import type { WorkspaceEvent } from '../api/read-events-after.ts';
import { liveChangeOf } from './live-change-of.ts';

const task = {
  object: 'task',
  id: 't1',
  project_id: 'p1',
  key: 'WEB-1',
  title: 'Ship it',
  description: 'Long text',
  status: 'done',
  position: 'b',
  version: 5,
  updated_at: '2026-11-25T10:00:00Z',
};
const event = (type: string, previous: Record<string, unknown> | null): WorkspaceEvent =>
  ({
    object: 'event',
    id: '77',
    seq: 12,
    type,
    created_at: '2026-11-25T10:00:00Z',
    actor: { type: 'api_token', user_id: 'u1', api_token_id: 'k1' },
    workspace_id: 'w1',
    project_id: 'p1',
    task_id: 't1',
    data: task,
    previous_attributes: previous,
  }) as unknown as WorkspaceEvent;

describe('liveChangeOf', () => {
  test('an update carries the new values of the fields that changed, as the broadcast does', () => {
    expect(liveChangeOf(event('task.moved', { status: 'todo', position: 'a' }))).toEqual({
      kind: 'change',
      seq: 12,
      type: 'task.moved',
      project_id: 'p1',
      task_id: 't1',
      resource_id: 't1',
      version: 5,
      actor_id: 'u1',
      fields: { status: 'done', position: 'b' },
    });
  });

  test('a creation carries every field but identity and bookkeeping; a deletion none', () => {
    expect(Object.keys(liveChangeOf(event('task.created', null)).fields)).toEqual([
      'key',
      'title',
      'description',
      'status',
      'position',
    ]);
    expect(liveChangeOf(event('task.deleted', null)).fields).toEqual({});
  });

  test("a member's resource is their user id", () => {
    const member = {
      ...event('member.updated', { role: 'viewer' }),
      data: { object: 'member', user_id: 'u9', role: 'member', version: 2 },
    } as unknown as WorkspaceEvent;
    expect(liveChangeOf(member)).toMatchObject({ resource_id: 'u9', fields: { role: 'member' } });
  });
});
