import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { LazyToaster } from '../components/ui/toaster.tsx';
import { createQueryClient } from '../lib/query/query-client.ts';
import { connectAuth } from './auth-wiring.ts';
import { createAppRouter } from './router.tsx';

export const queryClient = createQueryClient();
const router = createAppRouter(queryClient);
connectAuth(router, queryClient);

export function AppProvider() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <LazyToaster />
    </QueryClientProvider>
  );
}
