import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { Toaster } from 'sonner';
import { createQueryClient } from '../lib/query/query-client.ts';
import { connectAuth } from './auth-wiring.ts';
import { createAppRouter } from './router.tsx';

const queryClient = createQueryClient();
const router = createAppRouter(queryClient);
connectAuth(router, queryClient);

export function AppProvider() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      {/* Feedback for every mutation: `toast` from sonner, announced politely to screen readers. */}
      <Toaster position="bottom-right" theme="system" closeButton />
    </QueryClientProvider>
  );
}
