import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import type { ReactElement } from 'react';

/**
 * Renders a component as the app does, inside a QueryClientProvider, with a fresh client that does not
 * retry (TanStack's testing guide), and a user-event session to drive it.
 */
export function renderWithQueries(
  ui: ReactElement,
): RenderResult & { user: UserEvent; queryClient: QueryClient } {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const user = userEvent.setup();
  const rendered = render(<QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>);
  return { ...rendered, user, queryClient };
}
