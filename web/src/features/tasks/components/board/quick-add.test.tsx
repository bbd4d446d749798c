import { QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiAnswer, fetchMock } from '../../../../testing/fetch-mock.ts';
import { renderWithQueries } from '../../../../testing/render.tsx';
import type { Task } from '../../api/list-tasks.ts';
import { PendingCards } from './pending-cards.tsx';
import { QuickAdd } from './quick-add.tsx';

interface Sent {
  title: string;
  key: string | null;
  answer: (response: Response) => void;
}

/** The API's task endpoint, answering each creation only when the test says so. */
function holdCreations() {
  const sent: Sent[] = [];
  let number = 0;
  fetchMock.mockImplementation(async (input) => {
    const request = input as Request;
    const body = (await request.json()) as { title: string; status: Task['status'] };
    return new Promise<Response>((answer) =>
      sent.push({ title: body.title, key: request.headers.get('Idempotency-Key'), answer }),
    );
  });
  const created = (title: string): Task => ({
    object: 'task',
    id: `00000000-0000-4000-8000-${String(++number).padStart(12, '0')}`,
    project_id: '6b1f0c2d-3e4a-4b5c-8d6e-7f8091a2b3c4',
    key: `WEB-${number}`,
    number,
    title,
    description: '',
    status: 'todo',
    priority: 'none',
    assignee_id: null,
    due_date: null,
    position: `a${number}`,
    label_ids: [],
    checklist: { done: 0, total: 0 },
    created_by: null,
    completed_at: null,
    version: 1,
    created_at: '2026-11-28T12:00:00.000Z',
    updated_at: '2026-11-28T12:00:00.000Z',
  });
  return { sent, created };
}

function renderQuickAdd(slug: string) {
  return renderWithQueries(
    <>
      <QuickAdd slug={slug} projectKey="WEB" status="todo" tasks={[]} onClose={() => undefined} />
      <PendingCards slug={slug} projectKey="WEB" status="todo" tasks={[]} />
    </>,
  );
}

const saving = () => screen.queryAllByText('Saving…').length;

describe('QuickAdd', () => {
  it('empties the box on Enter before any answer, and sends the titles one at a time, in order, each with its key', async () => {
    const api = holdCreations();
    const { user } = renderQuickAdd('speed');
    const field = screen.getByRole<HTMLInputElement>('textbox', { name: 'New task in Todo' });

    await user.type(field, 'Homepage copy{Enter}Font pairing{Enter}');

    expect(field.value).toBe('');
    expect(saving()).toBe(2);
    await waitFor(() => expect(api.sent).toHaveLength(1));
    expect(api.sent[0]?.title).toBe('Homepage copy');

    api.sent[0]?.answer(apiAnswer(201, api.created('Homepage copy')));
    await waitFor(() => expect(api.sent).toHaveLength(2));
    expect(api.sent[1]?.title).toBe('Font pairing');
    api.sent[1]?.answer(apiAnswer(201, api.created('Font pairing')));
    await waitFor(() => expect(saving()).toBe(0));

    const [first, second] = api.sent;
    expect(first?.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(second?.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(second?.key).not.toBe(first?.key);
  });

  it('Enter twice sends the title once', async () => {
    const api = holdCreations();
    const { user } = renderQuickAdd('twice');
    await user.type(
      screen.getByRole('textbox', { name: 'New task in Todo' }),
      'Book the venue{Enter}{Enter}',
    );
    await waitFor(() => expect(api.sent).toHaveLength(1));
    expect(saving()).toBe(1);
  });

  it('keeps a refused title with the reason; Retry sends it again with the same key', async () => {
    const api = holdCreations();
    const { user } = renderQuickAdd('refused');
    await user.type(screen.getByRole('textbox', { name: 'New task in Todo' }), 'Migrate the list{Enter}');
    await waitFor(() => expect(api.sent).toHaveLength(1));
    api.sent[0]?.answer(
      apiAnswer(422, {
        code: 'validation_failed',
        detail: 'The request body is not valid.',
        errors: [{ path: 'body.title', code: 'too_big', message: 'must be at most 200 characters' }],
      }),
    );

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Not saved: Title must be at most 200 characters.');
    const failed = alert.parentElement as HTMLElement;
    expect(within(failed).getByText('Migrate the list')).toBeTruthy();

    await user.click(within(failed).getByRole('button', { name: 'Retry “Migrate the list”' }));
    await waitFor(() => expect(api.sent).toHaveLength(2));
    expect(api.sent[1]?.key).toBe(api.sent[0]?.key);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(saving()).toBe(1);
  });

  it('Discard forgets a failed title', async () => {
    const api = holdCreations();
    const { user } = renderQuickAdd('discard');
    await user.type(screen.getByRole('textbox', { name: 'New task in Todo' }), 'Press kit{Enter}');
    await waitFor(() => expect(api.sent).toHaveLength(1));
    api.sent[0]?.answer(apiAnswer(409, { code: 'project_archived', detail: 'The project is archived.' }));

    await screen.findByText('Not saved: The project is archived.');
    await user.click(screen.getByRole('button', { name: 'Discard “Press kit”' }));
    expect(screen.queryByText('Press kit')).toBeNull();
  });

  it('lets the task stand for its saving card once the board reads it before the answer came', async () => {
    const api = holdCreations();
    const { user, rerender, queryClient } = renderQuickAdd('echo');
    const older = api.created('Renew domain names');
    const column = (tasks: Task[]) => (
      <QueryClientProvider client={queryClient}>
        <QuickAdd slug="echo" projectKey="WEB" status="todo" tasks={tasks} onClose={() => undefined} />
        <PendingCards slug="echo" projectKey="WEB" status="todo" tasks={tasks} />
      </QueryClientProvider>
    );
    rerender(column([older]));
    await user.type(screen.getByRole('textbox', { name: 'New task in Todo' }), 'Renew domain names{Enter}');
    await waitFor(() => expect(api.sent).toHaveLength(1));
    // The task of the same title that was there before is not this one: the card still says it is saving.
    expect(saving()).toBe(1);

    // The realtime echo brought the new task into the column while the answer was still on its way.
    rerender(column([older, api.created('Renew domain names')]));
    expect(saving()).toBe(0);
  });
});
