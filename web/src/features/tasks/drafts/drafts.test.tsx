import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { apiAnswer, fetchMock } from '../../../testing/fetch-mock.ts';
import { renderWithQueries } from '../../../testing/render.tsx';
import { useTaskByKey } from '../api/get-task-by-key.ts';
import { CommentComposer } from '../components/comments/comment-item.tsx';
import type { Task } from '../components/panel/task-context.ts';
import { TaskDescription } from '../components/panel/task-description.tsx';
import { useTaskSaver } from '../components/panel/use-task-saver.ts';
import {
  clearDrafts,
  DRAFT_LIFETIME_MS,
  draftKey,
  draftPlace,
  readDraft,
  writeDraft,
  type DraftPlace,
} from './draft-storage.ts';

const ADA = '0b3c5d7e-1f2a-4b4c-8d6e-8f9a0b1c2d3e';
const BOB = '7a9b1c3d-5e6f-4a8b-9c0d-2e3f4a5b6c7d';
const TASK: Task = {
  object: 'task',
  id: '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9',
  project_id: '6b1f0c2d-3e4a-4b5c-8d6e-7f8091a2b3c4',
  key: 'WEB-7',
  number: 7,
  title: 'Plan the launch',
  description: 'Doors at nine',
  status: 'todo',
  priority: 'none',
  assignee_id: null,
  due_date: null,
  position: 'a0',
  label_ids: [],
  checklist: { done: 0, total: 0 },
  created_by: null,
  completed_at: null,
  version: 1,
  created_at: '2026-11-22T09:10:00.000Z',
  updated_at: '2026-11-22T09:10:00.000Z',
};
const ADAS: DraftPlace = { userId: ADA, workspace: 'acme', taskId: TASK.id };
const DESCRIPTION_KEY = draftKey(ADAS, 'description');

afterEach(() => window.localStorage.clear());

/** The API holding the task at `current`: a PATCH goes through only with its version in If-Match. */
function answerAsTheApi(current: Task = TASK) {
  const patches: { ifMatch: string | null; body: unknown }[] = [];
  fetchMock.mockImplementation(async (input) => {
    const request = input as Request;
    const { pathname } = new URL(request.url);
    if (request.method === 'GET' && pathname.endsWith('/v1/workspaces/acme/tasks/WEB-7'))
      return apiAnswer(200, current);
    if (request.method === 'PATCH' && pathname.endsWith(`/v1/tasks/${TASK.id}`)) {
      const ifMatch = request.headers.get('If-Match');
      const body = (await request.json()) as Partial<Task>;
      patches.push({ ifMatch, body });
      if (ifMatch !== `"${current.version}"`)
        return apiAnswer(412, { code: 'precondition_failed', detail: 'The task changed since you read it.' });
      current = { ...current, ...body, version: current.version + 1 };
      return apiAnswer(200, current);
    }
    return apiAnswer(404, { code: 'not_found', detail: 'No such thing.' });
  });
  return { patches };
}

function Description() {
  const task = useTaskByKey('acme', 'WEB-7');
  const { save } = useTaskSaver('acme', 'WEB-7');
  return task.data ? (
    <TaskDescription task={task.data} canEdit save={save} draftPlace={ADAS} />
  ) : (
    <p>Loading</p>
  );
}

describe('draft storage', () => {
  it('keeps a draft per person, workspace, task and field', () => {
    const bobs = draftPlace(BOB, 'acme', TASK.id);
    writeDraft(localStorage, DESCRIPTION_KEY, { text: 'Ada’s', base: null, savedAt: Date.now() });
    expect(readDraft(localStorage, DESCRIPTION_KEY)?.text).toBe('Ada’s');
    expect(bobs && readDraft(localStorage, draftKey(bobs, 'description'))).toBeNull();
    expect(readDraft(localStorage, draftKey(ADAS, 'comment:new'))).toBeNull();
    expect(readDraft(localStorage, draftKey({ ...ADAS, workspace: 'other' }, 'description'))).toBeNull();
    expect(draftPlace(null, 'acme', TASK.id)).toBeNull();
  });

  it('drops a draft older than its lifetime, and one it cannot read', () => {
    const now = Date.now();
    writeDraft(localStorage, DESCRIPTION_KEY, {
      text: 'old',
      base: null,
      savedAt: now - DRAFT_LIFETIME_MS - 1,
    });
    expect(readDraft(localStorage, DESCRIPTION_KEY, now)).toBeNull();
    expect(localStorage.getItem(DESCRIPTION_KEY)).toBeNull();
    localStorage.setItem(DESCRIPTION_KEY, '{not json');
    expect(readDraft(localStorage, DESCRIPTION_KEY)).toBeNull();
  });

  it('clears every draft, and nothing else, on sign-out', () => {
    writeDraft(localStorage, DESCRIPTION_KEY, { text: 'a', base: null, savedAt: Date.now() });
    writeDraft(localStorage, draftKey({ ...ADAS, userId: BOB }, 'comment:new'), {
      text: 'b',
      base: null,
      savedAt: Date.now(),
    });
    localStorage.setItem('sb-local-auth-token', '{}');
    clearDrafts(localStorage);
    expect(Object.keys(localStorage)).toEqual(['sb-local-auth-token']);
  });
});

describe('TaskDescription with drafts', () => {
  it('keeps each key press at once, marks the draft, and clears it when saved', async () => {
    const api = answerAsTheApi();
    const { user } = renderWithQueries(<Description />);
    await user.click(await screen.findByRole('button', { name: 'Edit description' }));
    expect(screen.queryByText('Draft')).toBeNull();
    await user.type(screen.getByRole('textbox', { name: 'Description (markdown)' }), ', close at six');

    expect(readDraft(localStorage, DESCRIPTION_KEY)).toMatchObject({
      text: 'Doors at nine, close at six',
      base: { text: 'Doors at nine', version: 1 },
    });
    expect(screen.getByText('Draft')).toBeTruthy();
    const leaving = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(leaving);
    expect(leaving.defaultPrevented).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Doors at nine, close at six');
    expect(api.patches).toEqual([{ ifMatch: '"1"', body: { description: 'Doors at nine, close at six' } }]);
    expect(localStorage.getItem(DESCRIPTION_KEY)).toBeNull();
    const after = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(after);
    expect(after.defaultPrevented).toBe(false);
  });

  it('opens the editor with a kept draft; Esc keeps it, Cancel discards it', async () => {
    answerAsTheApi();
    writeDraft(localStorage, DESCRIPTION_KEY, {
      text: 'Doors at eight',
      base: { text: 'Doors at nine', version: 1 },
      savedAt: Date.now(),
    });
    const { user } = renderWithQueries(<Description />);
    const field = await screen.findByRole('textbox', { name: 'Description (markdown)' });
    expect((field as HTMLTextAreaElement).value).toBe('Doors at eight');
    expect(screen.getByText('Draft')).toBeTruthy();
    // Not focused: the panel opened, not the editor.
    expect(document.activeElement).not.toBe(field);

    // With unsaved text Esc is the panel's (it closes, keeping the draft), not the field's.
    fireEvent.keyDown(field, { key: 'Escape' });
    expect(field.closest('[data-editing]')).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Description (markdown)' })).toBe(field);
    expect(readDraft(localStorage, DESCRIPTION_KEY)?.text).toBe('Doors at eight');

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('textbox', { name: 'Description (markdown)' })).toBeNull();
    expect(localStorage.getItem(DESCRIPTION_KEY)).toBeNull();
  });

  it('saves a draft begun before someone changed the description over that version: refused, shown as a conflict', async () => {
    const api = answerAsTheApi({ ...TASK, description: 'Doors at ten (Bob)', version: 2 });
    writeDraft(localStorage, DESCRIPTION_KEY, {
      text: 'Doors at eight',
      base: { text: 'Doors at nine', version: 1 },
      savedAt: Date.now(),
    });
    const { user } = renderWithQueries(<Description />);
    await screen.findByRole('textbox', { name: 'Description (markdown)' });
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await screen.findByText(/Someone else changed the description/);
    expect(api.patches.map((patch) => patch.ifMatch)).toEqual(['"1"']);
    expect(readDraft(localStorage, DESCRIPTION_KEY)?.text).toBe('Doors at eight');
    await user.click(screen.getByRole('button', { name: 'Use mine' }));
    await waitFor(() => expect(api.patches.map((patch) => patch.ifMatch)).toEqual(['"1"', '"2"']));
    await waitFor(() => expect(localStorage.getItem(DESCRIPTION_KEY)).toBeNull());
  });
});

describe('CommentComposer with drafts', () => {
  it('offers the comment being written back, and forgets it once sent', async () => {
    const key = draftKey(ADAS, 'comment:new');
    writeDraft(localStorage, key, { text: 'Half a thought', base: null, savedAt: Date.now() });
    const sent: string[] = [];
    const { user } = renderWithQueries(
      <CommentComposer taskId={TASK.id} draftPlace={ADAS} create={async (body) => sent.push(body)} />,
    );
    const field = screen.getByRole('textbox', { name: 'Write a comment' });
    expect((field as HTMLTextAreaElement).value).toBe('Half a thought');
    expect(screen.getByText('Draft')).toBeTruthy();

    await user.type(field, ', finished');
    expect(readDraft(localStorage, key)?.text).toBe('Half a thought, finished');
    await user.click(screen.getByRole('button', { name: 'Comment' }));
    await waitFor(() => expect(sent).toEqual(['Half a thought, finished']));
    await waitFor(() =>
      expect((screen.getByRole('textbox', { name: 'Write a comment' }) as HTMLTextAreaElement).value).toBe(
        '',
      ),
    );
    expect(localStorage.getItem(key)).toBeNull();
  });
});
