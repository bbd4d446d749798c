import type { components } from '@api-spec/schema.d.ts';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { apiAnswer, fetchMock } from '../../../testing/fetch-mock.ts';
import { renderWithQueries } from '../../../testing/render.tsx';
import { InboxList } from './inbox-list.tsx';

type Notification = components['schemas']['Notification'];

const LEO = '2c4e6a8b-1d3f-4a5b-9c7d-0e2f4a6b8c0d';

function notification(id: string, fields: Partial<Notification> = {}): Notification {
  const now = new Date().toISOString();
  return {
    object: 'notification',
    id,
    type: 'mentioned',
    workspace: { id: '9d3c1f6e-2a4b-4c8d-9e0f-1a2b3c4d5e6f', slug: 'acme', name: 'Acme' },
    task: {
      id: '5c3e2a10-8b7d-4f6e-9a01-3d2c1b0a9f8e',
      key: 'WEB-12',
      title: 'Fix the login redirect',
      status: 'todo',
    },
    actor: { id: '7d1f0c22-1a2b-4c3d-8e4f-5a6b7c8d9e0f', display_name: 'Maya' },
    comment: { id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d', body: `<@${LEO}> can you look at this?` },
    change_count: 1,
    due_date: null,
    read_at: null,
    archived_at: null,
    created_at: now,
    updated_at: now,
    ...fields,
  };
}

const first = notification('00000000-0000-4000-8000-000000000001');
const second = notification('00000000-0000-4000-8000-000000000002', {
  type: 'invitation_accepted',
  task: null,
  comment: null,
  actor: { id: LEO, display_name: 'Leo' },
});

interface Sent {
  method: string;
  path: string;
  body: unknown;
}

function serve(): Sent[] {
  const sent: Sent[] = [];
  fetchMock.mockImplementation(async (input) => {
    const request = input instanceof Request ? input : new Request(input);
    const text = await request.text();
    sent.push({
      method: request.method,
      path: new URL(request.url).pathname.replace('/functions/v1/api', ''),
      body: text ? JSON.parse(text) : undefined,
    });
    return apiAnswer(200, first);
  });
  return sent;
}

const selected = () => document.querySelector('[data-selected]')?.getAttribute('data-notification-id');

describe('InboxList', () => {
  beforeEach(() => fetchMock.mockReset());

  it('words each notification, with its mentions by name', () => {
    serve();
    renderWithQueries(
      <InboxList
        notifications={[first, second]}
        nameOf={(_slug, id) => (id === LEO ? 'Leo' : undefined)}
        onOpen={vi.fn()}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Today' })).toBeTruthy();
    expect(screen.getByText('Maya mentioned you on WEB-12 · Fix the login redirect')).toBeTruthy();
    expect(screen.getByText('@Leo can you look at this?')).toBeTruthy();
    expect(screen.getByText('Leo accepted your invitation to Acme')).toBeTruthy();
  });

  it('j and k move the selection, u marks it read, e archives it, Enter opens it and reads it', async () => {
    const sent = serve();
    const onOpen = vi.fn();
    const { user } = renderWithQueries(
      <InboxList notifications={[first, second]} nameOf={() => undefined} onOpen={onOpen} />,
    );
    await user.keyboard('j');
    expect(selected()).toBe(first.id);
    await user.keyboard('j');
    expect(selected()).toBe(second.id);
    await user.keyboard('k');
    expect(selected()).toBe(first.id);

    await user.keyboard('u');
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      method: 'PATCH',
      path: `/v1/me/notifications/${first.id}`,
      body: { read: true },
    });

    await user.keyboard('e');
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]).toEqual({
      method: 'PATCH',
      path: `/v1/me/notifications/${first.id}`,
      body: { archived: true },
    });
    expect(selected()).toBe(second.id);

    await user.keyboard('{Enter}');
    expect(onOpen).toHaveBeenCalledWith(second);
    await waitFor(() => expect(sent).toHaveLength(3));
    expect(sent[2]).toEqual({
      method: 'PATCH',
      path: `/v1/me/notifications/${second.id}`,
      body: { read: true },
    });
  });
});
