import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiAnswer, fetchMock } from '../../../../testing/fetch-mock.ts';
import { renderWithQueries } from '../../../../testing/render.tsx';
import { useTaskByKey } from '../../api/get-task-by-key.ts';
import type { Task } from './task-context.ts';
import { TaskTitle } from './task-title.tsx';
import { useTaskSaver } from './use-task-saver.ts';

const TASK: Task = {
  object: 'task',
  id: '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9',
  project_id: '6b1f0c2d-3e4a-4b5c-8d6e-7f8091a2b3c4',
  key: 'WEB-7',
  number: 7,
  title: 'Original title',
  description: '',
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

/**
 * The API as two people see it: the task is read at version 1; someone else then renames it (version 2),
 * so a PATCH with `If-Match: "1"` is refused with 412 and one with `"2"` goes through.
 */
function answerAsTheApi() {
  let current: Task = TASK;
  const patches: { ifMatch: string | null; body: unknown }[] = [];
  fetchMock.mockImplementation(async (input) => {
    const request = input as Request;
    const { pathname } = new URL(request.url);
    if (request.method === 'GET' && pathname.endsWith('/v1/workspaces/acme/tasks/WEB-7')) {
      return apiAnswer(200, current);
    }
    if (request.method === 'PATCH' && pathname.endsWith(`/v1/tasks/${TASK.id}`)) {
      const ifMatch = request.headers.get('If-Match');
      const body = (await request.json()) as Partial<Task>;
      patches.push({ ifMatch, body });
      if (ifMatch !== `"${current.version}"`) {
        return apiAnswer(412, {
          code: 'precondition_failed',
          detail: 'The task changed since you read it.',
          current_version: current.version,
        });
      }
      current = { ...current, ...body, version: current.version + 1 };
      return apiAnswer(200, current);
    }
    return apiAnswer(404, { code: 'not_found', detail: 'No such thing.' });
  });
  return {
    patches,
    changeElsewhere: (title: string) => {
      current = { ...current, title, version: current.version + 1 };
    },
  };
}

function Harness() {
  const task = useTaskByKey('acme', 'WEB-7');
  const { save } = useTaskSaver('acme', 'WEB-7');
  return task.data ? <TaskTitle task={task.data} canEdit save={save} /> : <p>Loading</p>;
}

describe('TaskTitle', () => {
  it('saves on Enter with If-Match and shows the new title', async () => {
    const api = answerAsTheApi();
    const { user } = renderWithQueries(<Harness />);

    await user.click(await screen.findByRole('button', { name: 'Original title' }));
    const field = screen.getByRole('textbox', { name: 'Title' });
    await user.clear(field);
    await user.type(field, 'Ship it{Enter}');

    expect(await screen.findByRole('button', { name: 'Ship it' })).toBeTruthy();
    expect(api.patches).toEqual([{ ifMatch: '"1"', body: { title: 'Ship it' } }]);
  });

  it('on a conflict, says so, shows their title and keeps what was typed; "Use mine" saves it over theirs', async () => {
    const api = answerAsTheApi();
    const { user } = renderWithQueries(<Harness />);

    await user.click(await screen.findByRole('button', { name: 'Original title' }));
    api.changeElsewhere('Their title');
    const field = screen.getByRole<HTMLInputElement>('textbox', { name: 'Title' });
    await user.clear(field);
    await user.type(field, 'My title{Enter}');

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/Someone else changed the title/);
    await waitFor(() => expect(alert.textContent).toContain('Their title'));
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Title' }).value).toBe('My title');

    await user.click(screen.getByRole('button', { name: 'Use mine' }));

    expect(await screen.findByRole('button', { name: 'My title' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(api.patches.map((patch) => patch.ifMatch)).toEqual(['"1"', '"2"']);
  });

  it('"Discard mine" drops the draft and shows their title', async () => {
    const api = answerAsTheApi();
    const { user } = renderWithQueries(<Harness />);

    await user.click(await screen.findByRole('button', { name: 'Original title' }));
    api.changeElsewhere('Their title');
    const field = screen.getByRole('textbox', { name: 'Title' });
    await user.clear(field);
    await user.type(field, 'My title{Enter}');
    await screen.findByRole('alert');

    await user.click(screen.getByRole('button', { name: 'Discard mine' }));

    expect(await screen.findByRole('button', { name: 'Their title' })).toBeTruthy();
    expect(api.patches).toHaveLength(1);
  });

  it('Esc cancels the edit without saving', async () => {
    const api = answerAsTheApi();
    const { user } = renderWithQueries(<Harness />);

    await user.click(await screen.findByRole('button', { name: 'Original title' }));
    await user.type(screen.getByRole('textbox', { name: 'Title' }), ' more{Escape}');

    expect(await screen.findByRole('button', { name: 'Original title' })).toBeTruthy();
    expect(api.patches).toHaveLength(0);
  });
});
