import type { components } from '@api-spec/schema.d.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  RouterProvider,
} from '@tanstack/react-router';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { apiAnswer, fetchMock } from '../../../testing/fetch-mock.ts';
import { ApiTokensSection } from './api-tokens-section.tsx';

type ApiToken = components['schemas']['ApiToken'];

const SECRET = `tl_pat_${'a'.repeat(43)}`;

const ci: ApiToken = {
  object: 'api_token',
  id: '3f6c2b1a-9d8e-4c7b-a6f5-0e1d2c3b4a59',
  name: 'Nightly CI',
  prefix: 'tl_pat_4fQx',
  scope: 'write',
  status: 'active',
  expires_at: '2027-02-20T09:00:00.000Z',
  last_used_at: null,
  revoked_at: null,
  version: 1,
  created_at: '2026-11-22T09:00:00.000Z',
  updated_at: '2026-11-22T09:00:00.000Z',
};

interface Sent {
  method: string;
  path: string;
  body: string;
  ifMatch: string | null;
}

/** Answers the token calls as the API does, with `tokens` listed, and records what was sent. */
function serve(tokens: ApiToken[]): Sent[] {
  const sent: Sent[] = [];
  fetchMock.mockImplementation(async (input) => {
    const request = input instanceof Request ? input : new Request(input);
    const path = new URL(request.url).pathname.replace('/functions/v1/api', '');
    sent.push({
      method: request.method,
      path,
      body: await request.text(),
      ifMatch: request.headers.get('If-Match'),
    });
    if (request.method === 'POST') {
      const created = {
        ...ci,
        id: 'c0ffee00-0000-4000-8000-000000000001',
        name: 'Reports',
        scope: 'read',
        token: SECRET,
      };
      return apiAnswer(201, created);
    }
    if (request.method === 'DELETE') return apiAnswer(200, { ...ci, status: 'revoked', version: 2 });
    return apiAnswer(200, { object: 'list', data: tokens, next_cursor: null });
  });
  return sent;
}

function renderSection() {
  const root = createRootRoute();
  const routes = ['/', '/docs/api', '/account'].map((path) =>
    createRoute({ getParentRoute: () => root, path, component: ApiTokensSection }),
  );
  const router = createRouter({ routeTree: root.addChildren(routes), history: createMemoryHistory() });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

describe('ApiTokensSection', () => {
  it('lists tokens with prefix, scope and last use, and says so when there are none', async () => {
    serve([ci]);
    renderSection();
    const row = await screen.findByTestId('api-token-row');
    expect(row.textContent).toContain('Nightly CI');
    expect(row.textContent).toContain('tl_pat_4fQx…');
    expect(row.textContent).toContain('write');
    expect(row.textContent).toContain('never');
  });

  it('says what to do when there are no tokens', async () => {
    serve([]);
    renderSection();
    await screen.findByText('No tokens yet. Create one above to call the API from a script.');
  });

  it('names an empty name beside its field and sends nothing', async () => {
    const sent = serve([]);
    const user = renderSection();
    await user.click(await screen.findByRole('button', { name: 'Create token' }));
    const name = screen.getByLabelText('Name');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(sent.filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  it('creates a token and shows its secret once, with a curl that uses it', async () => {
    const sent = serve([]);
    const user = renderSection();
    await user.type(await screen.findByLabelText('Name'), 'Reports');
    await user.selectOptions(screen.getByLabelText('Expires after'), '30');
    await user.click(screen.getByRole('button', { name: 'Create token' }));

    expect((await screen.findByTestId('new-api-token')).getAttribute('value')).toBe(SECRET);
    const curl = screen.getByTestId('new-api-token-curl').getAttribute('value') ?? '';
    expect(curl).toMatch(
      /^curl -s https?:\/\/.+\/functions\/v1\/api\/v1\/workspaces -H "Authorization: Bearer tl_pat_a+"$/,
    );
    const post = sent.find((call) => call.method === 'POST');
    expect(post && JSON.parse(post.body)).toEqual({ name: 'Reports', scope: 'read', expires_in_days: 30 });

    await user.click(screen.getByRole('button', { name: 'Done, I have copied it' }));
    expect(screen.queryByTestId('new-api-token')).toBeNull();
  });

  it('asks before revoking, then revokes at the version shown', async () => {
    const sent = serve([ci]);
    const user = renderSection();
    await user.click(await screen.findByRole('button', { name: 'Revoke Nightly CI' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke “Nightly CI”?' });
    expect(sent.filter((call) => call.method === 'DELETE')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Revoke token' }));
    await screen.findByText('Nightly CI');
    await vi.waitFor(() =>
      expect(sent.filter((call) => call.method === 'DELETE')).toEqual([
        { method: 'DELETE', path: `/v1/me/tokens/${ci.id}`, body: '', ifMatch: '"1"' },
      ]),
    );
  });
});
