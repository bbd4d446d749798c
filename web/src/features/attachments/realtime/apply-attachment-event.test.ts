import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../../lib/realtime/live-event.ts';
import { attachmentKeys } from '../api/query-keys.ts';
import { applyAttachmentEvent } from './apply-attachment-event.ts';

const TASK = '5b1c6a2e-8f3d-4e7a-9c21-0d4e5f6a7b8c';
const OTHER_TASK = '6c2d7b3f-9a4e-4f8b-8d32-1e5f6a7b8c9d';

function change(type: string, taskId: string | null): LiveEvent {
  return {
    kind: 'change',
    seq: 7,
    type,
    project_id: null,
    task_id: taskId,
    resource_id: 'a0000000-0000-4000-8000-000000000001',
    version: 2,
    actor_id: null,
    fields: {},
  };
}

/** Two tasks' lists cached; answers which are stale after the event. */
function staleAfter(event: LiveEvent): string[] {
  const queryClient = new QueryClient();
  for (const taskId of [TASK, OTHER_TASK]) queryClient.setQueryData(attachmentKeys.list({ taskId }), []);
  applyAttachmentEvent(queryClient, event);
  return [TASK, OTHER_TASK].filter(
    (taskId) => queryClient.getQueryState(attachmentKeys.list({ taskId }))?.isInvalidated,
  );
}

describe('applyAttachmentEvent', () => {
  it("reads again the files of the task a file was attached to or deleted from, and only that task's", () => {
    expect(staleAfter(change('attachment.added', TASK))).toEqual([TASK]);
    expect(staleAfter(change('attachment.deleted', OTHER_TASK))).toEqual([OTHER_TASK]);
  });

  it('leaves the files alone for other events, and reads them all again after a bulk change of files', () => {
    expect(staleAfter(change('task.updated', TASK))).toEqual([]);
    const bulk: LiveEvent = {
      kind: 'bulk',
      seq_from: 1,
      seq_to: 40,
      cursor: 'c40',
      types: ['attachment.deleted'],
      project_ids: [],
    };
    expect(staleAfter(bulk)).toEqual([TASK, OTHER_TASK]);
  });
});
