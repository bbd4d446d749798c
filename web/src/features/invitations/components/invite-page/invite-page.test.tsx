import type { components } from '@api-spec/schema.d.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  RouterProvider,
} from '@tanstack/react-router';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { apiAnswer, fetchMock } from '../../../../testing/fetch-mock.ts';
import { InvitePage } from './invite-page.tsx';

type InvitationPreview = components['schemas']['InvitationPreview'];

const TOKEN = 'q3ZKf0Xw8mB1vT7yN4cR2hL9sD6jP5eA0uGiOxYzW_k';

const pending: InvitationPreview = {
  object: 'invitation_preview',
  workspace: { slug: 'acme', name: 'Acme', require_mfa: false },
  email: 'grace@example.com',
  role: 'member',
  status: 'pending',
  invited_by: { display_name: 'Ada Lovelace' },
  expires_at: '2026-11-29T09:00:00.000Z',
  for_caller: true,
  caller_is_member: false,
};

const joined = {
  object: 'workspace',
  id: '2b7e4c1a-5d3f-4e8a-9b6c-1f0e2d3c4b5a',
  slug: 'acme',
  name: 'Acme',
  require_mfa: false,
  role: 'member',
  created_by: null,
  version: 1,
  created_at: '2026-11-22T09:00:00.000Z',
  updated_at: '2026-11-22T09:00:00.000Z',
};

/** Answers the preview with `preview` (or a problem), and the accept with `accept`. */
function answer(preview: { status: number; body: object }, accept = { status: 200, body: joined }) {
  fetchMock.mockImplementation((input) => {
    const request = input instanceof Request ? input : new Request(input);
    const { status, body } = request.method === 'POST' ? accept : preview;
    return Promise.resolve(apiAnswer(status, body));
  });
}

const requests = () =>
  fetchMock.mock.calls.map(([input]) => {
    const request = input instanceof Request ? input : new Request(input);
    return `${request.method} ${new URL(request.url).pathname}`;
  });

function renderPage(
  viewer: { signedInAs?: string; emailFromLink?: string } = { signedInAs: 'leo@example.com' },
) {
  const onJoined = vi.fn();
  const onSwitchAccount = vi.fn();
  const root = createRootRoute();
  const routes = ['/', '/w/$slug'].map((path) =>
    createRoute({
      getParentRoute: () => root,
      path,
      component: () => (
        <InvitePage
          token={TOKEN}
          signedInAs={viewer.signedInAs}
          emailFromLink={viewer.emailFromLink}
          onJoined={onJoined}
          onSwitchAccount={onSwitchAccount}
        />
      ),
    }),
  );
  const router = createRouter({ routeTree: root.addChildren(routes), history: createMemoryHistory() });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { user: userEvent.setup(), onJoined, onSwitchAccount };
}

describe('InvitePage', () => {
  it('shows the workspace, the role and who invited them, then accepts and hands on the workspace', async () => {
    answer({ status: 200, body: pending });
    const { user, onJoined } = renderPage();

    await screen.findByRole('heading', { name: 'Join Acme' });
    expect(document.body.textContent).toContain(
      'Ada Lovelace invited grace@example.com to the workspace Acme as a member.',
    );
    await user.click(screen.getByRole('button', { name: 'Accept and join Acme' }));

    await vi.waitFor(() => expect(onJoined).toHaveBeenCalledWith(joined));
    expect(requests()).toContain(`POST /functions/v1/api/v1/invitations/${TOKEN}/accept`);
  });

  it('shows why the API refused the accept', async () => {
    answer(
      { status: 200, body: pending },
      {
        status: 403,
        body: { code: 'email_not_confirmed', detail: 'Confirm your e-mail address first.' } as never,
      },
    );
    const { user, onJoined } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Accept and join Acme' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Confirm your e-mail address first.');
    expect(onJoined).not.toHaveBeenCalled();
  });

  it('tells someone signed in as another address what to do, and offers no accept', async () => {
    answer({ status: 200, body: { ...pending, email: null, for_caller: false } });
    const { user, onSwitchAccount } = renderPage();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This invitation was sent to a different e-mail address than leo@example.com, the one you are signed in with. To accept it, sign in, or sign up, with the address it was sent to.',
    );
    expect(document.body.textContent).toContain(
      'Ada Lovelace sent this invitation to join the workspace Acme as a member.',
    );
    expect(screen.queryByRole('button', { name: /Accept/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Sign out and switch account' }));
    expect(onSwitchAccount).toHaveBeenCalled();
  });

  it.each([
    ['accepted', 'This invitation has already been used. Ask Ada Lovelace for a new invitation.'],
    ['revoked', 'This invitation was revoked. Ask Ada Lovelace for a new invitation.'],
  ] as const)('says what to do with an invitation %s', async (status, sentence) => {
    answer({ status: 200, body: { ...pending, status } });
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toBe(sentence);
    expect(screen.queryByRole('button', { name: /Accept/ })).toBeNull();
  });

  it('says when an expired invitation expired', async () => {
    answer({ status: 200, body: { ...pending, status: 'expired' } });
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /^This invitation expired on .+\. Ask Ada Lovelace for a new invitation\.$/,
    );
  });

  it('links a member to the workspace instead', async () => {
    answer({ status: 200, body: { ...pending, status: 'accepted', caller_is_member: true } });
    renderPage();
    const link = await screen.findByRole('link', { name: 'Open Acme' });
    expect(link.getAttribute('href')).toBe('/w/acme');
  });

  it('shows someone signed out who invites them where, and links to sign up or in with the address filled in', async () => {
    answer({ status: 200, body: { ...pending, email: null, for_caller: false } });
    renderPage({ emailFromLink: 'grace@example.com' });
    await screen.findByRole('heading', { name: 'Join Acme' });
    expect(document.body.textContent).toContain(
      'Ada Lovelace invited grace@example.com to the workspace Acme as a member.',
    );
    expect(screen.queryByRole('button', { name: /Accept/ })).toBeNull();
    const back = `redirect=${encodeURIComponent(`/invite/${TOKEN}`)}`;
    expect(screen.getByRole('link', { name: 'Create account' }).getAttribute('href')).toBe(
      `/sign-up?${back}&email=grace%40example.com`,
    );
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(
      `/sign-in?${back}&email=grace%40example.com`,
    );
    expect(requests()).toEqual([`GET /functions/v1/api/v1/invitations/${TOKEN}`]);
  });

  it('says "you" to someone signed out whose link carries no address', async () => {
    answer({ status: 200, body: { ...pending, email: null, for_caller: false } });
    renderPage({});
    await screen.findByRole('heading', { name: 'Join Acme' });
    expect(document.body.textContent).toContain(
      'Ada Lovelace invited you to join the workspace Acme as a member.',
    );
    expect(screen.getByRole('link', { name: 'Create account' }).getAttribute('href')).not.toContain('email=');
  });

  it('tells someone signed out that a used link is used, with nothing to sign up for', async () => {
    answer({ status: 200, body: { ...pending, email: null, for_caller: false, status: 'accepted' } });
    renderPage({ emailFromLink: 'grace@example.com' });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This invitation has already been used. Ask Ada Lovelace for a new invitation.',
    );
    expect(screen.queryByRole('link', { name: 'Create account' })).toBeNull();
    expect(document.body.textContent).not.toContain('grace@example.com');
  });

  it('explains a link that names no invitation', async () => {
    answer({ status: 404, body: { code: 'not_found', detail: 'No invitation has this token.' } });
    renderPage();
    await screen.findByRole('heading', { name: 'This invitation link does not work' });
  });
});
