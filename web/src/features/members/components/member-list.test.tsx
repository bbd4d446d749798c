import type { components } from '@api-spec/schema.d.ts';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { apiAnswer, fetchMock } from '../../../testing/fetch-mock.ts';
import { renderWithQueries } from '../../../testing/render.tsx';
import { MemberList } from './member-list.tsx';

type Member = components['schemas']['Member'];

function member(userId: string, role: Member['role'], name: string): Member {
  return {
    object: 'member',
    user_id: userId,
    workspace_id: 'ws-1',
    role,
    display_name: name,
    email: `${name.toLowerCase()}@example.com`,
    avatar_url: null,
    version: 3,
    created_at: '2025-01-02T10:00:00Z',
    updated_at: '2025-01-02T10:00:00Z',
  };
}

const ada = member('00000000-0000-4000-8000-00000000000a', 'owner', 'Ada');
const bob = member('00000000-0000-4000-8000-00000000000b', 'member', 'Bob');

function renderList(callerRole: Member['role'], members: Member[] = [ada, bob]) {
  const onLeft = vi.fn();
  const rendered = renderWithQueries(
    <MemberList
      slug="acme"
      members={members}
      callerId={ada.user_id}
      callerRole={callerRole}
      onLeft={onLeft}
    />,
  );
  return { ...rendered, onLeft };
}

describe('MemberList', () => {
  it('tells the last owner why they cannot leave, and sends nothing', async () => {
    fetchMock.mockImplementation(() => Promise.resolve(apiAnswer(500, {})));
    const { user, onLeft } = renderList('owner');

    expect(screen.getByTestId('last-owner-note').textContent).toContain('only owner');
    await user.click(screen.getByRole('button', { name: 'Leave workspace' }));

    const refusal = await screen.findByTestId('last-owner-refusal');
    expect(refusal.textContent).toContain('Make someone else an owner first');
    expect(screen.queryByRole('button', { name: /^Leave workspace$/, hidden: false })).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(onLeft).not.toHaveBeenCalled();
  });

  it("changes a member's role with If-Match on their version", async () => {
    fetchMock.mockImplementation(() =>
      Promise.resolve(apiAnswer(200, { ...bob, role: 'viewer', version: 4 })),
    );
    const { user } = renderList('owner');

    await user.click(screen.getByRole('button', { name: 'Role of Bob: Member' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Viewer' }));

    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const request = fetchMock.mock.calls[0]?.[0] as Request;
    expect(request.method).toBe('PATCH');
    expect(request.url.endsWith(`/v1/workspaces/acme/members/${bob.user_id}`)).toBe(true);
    expect(request.headers.get('If-Match')).toBe('"3"');
    expect(await request.json()).toEqual({ role: 'viewer' });
  });

  it('offers viewers no role changes and no removal of others, only leaving', () => {
    renderList('viewer', [ada, bob, member('00000000-0000-4000-8000-00000000000c', 'owner', 'Cy')]);

    expect(screen.queryByRole('button', { name: /^Role of/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Remove/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Leave workspace' })).toBeTruthy();
  });
});
