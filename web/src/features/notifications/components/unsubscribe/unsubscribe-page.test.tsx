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
import { describe, expect, it } from 'vitest';
import { apiAnswer, fetchMock } from '../../../../testing/fetch-mock.ts';
import { UnsubscribePage } from './unsubscribe-page.tsx';

const payload = btoa(JSON.stringify({ v: 1, u: 'someone', t: ['mentioned', 'assigned'] }))
  .replace(/\+/g, '-')
  .replace(/\//g, '_')
  .replace(/=+$/, '');
const TOKEN = `${payload}.c2lnbmF0dXJl`;

const requests = () =>
  fetchMock.mock.calls.map(([input]) => (input instanceof Request ? input : new Request(input)));

function renderPage(token = TOKEN) {
  const root = createRootRoute();
  const routes = ['/', '/account'].map((path) =>
    createRoute({ getParentRoute: () => root, path, component: () => <UnsubscribePage token={token} /> }),
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

describe('UnsubscribePage', () => {
  it('names what stops, sends nothing until the click, then says it is done', async () => {
    fetchMock.mockResolvedValue(
      apiAnswer(200, { object: 'mail_unsubscribed', types: ['mentioned', 'assigned'] }),
    );
    const user = renderPage();
    await screen.findByText(
      'You will no longer get e-mails about mentions and assignments. Your inbox in Tasklane still tells you.',
    );
    expect(requests()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Turn off these e-mails' }));
    expect((await screen.findByRole('status')).textContent).toContain(
      'Your inbox in Tasklane still tells you.',
    );
    const [request] = requests();
    expect(request?.method).toBe('POST');
    expect(new URL(request?.url ?? '').pathname).toBe(
      `/functions/v1/api/v1/notification-unsubscribe/${TOKEN}`,
    );
    expect(request?.headers.has('Authorization')).toBe(false);
    expect(screen.getByRole('link', { name: /notification/ }).getAttribute('href')).toBe(
      '/account#notifications',
    );
  });

  it('says a link the API did not sign does not work', async () => {
    fetchMock.mockResolvedValue(
      apiAnswer(404, { code: 'not_found', detail: 'This unsubscribe link is not valid.' }),
    );
    const user = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Turn off these e-mails' }));
    await screen.findByRole('heading', { name: 'This unsubscribe link does not work' });
  });

  it('says a link it cannot read does not work, without asking the API', async () => {
    renderPage('garbage');
    await screen.findByRole('heading', { name: 'This unsubscribe link does not work' });
    expect(requests()).toEqual([]);
  });

  it('offers to try again when the network fails', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const user = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Turn off these e-mails' }));
    await screen.findByRole('alert');
    fetchMock.mockResolvedValue(apiAnswer(200, { object: 'mail_unsubscribed', types: ['mentioned'] }));
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect((await screen.findByRole('status')).textContent).toContain('no more e-mails about mentions.');
  });
});
