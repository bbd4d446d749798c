import type { QueryClient } from '@tanstack/react-query';
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
} from '@tanstack/react-router';
import { paths } from '../config/paths.ts';
import { healthQueryOptions } from '../features/health/api/get-health.ts';
import { RootLayout } from './routes/root-layout.tsx';
import { RouteError } from './routes/route-error.tsx';
import { RoutePending } from './routes/route-pending.tsx';

interface RouterContext {
  queryClient: QueryClient;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: lazyRouteComponent(() => import('./routes/not-found.tsx'), 'NotFoundScreen'),
});

const homeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: paths.home,
  // Start the request while the screen's code downloads rather than after it renders. Prefetching never
  // throws: the screen shows the error itself, with a retry.
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(healthQueryOptions());
  },
  component: lazyRouteComponent(() => import('./routes/home.tsx'), 'HomeScreen'),
});

const routeTree = rootRoute.addChildren([homeRoute]);

export function createAppRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    context: { queryClient },
    defaultPreload: 'intent',
    // TanStack Query decides what is fresh; the router always asks it.
    defaultPreloadStaleTime: 0,
    defaultErrorComponent: RouteError,
    defaultPendingComponent: RoutePending,
    scrollRestoration: true,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
