import type { QueryClient } from '@tanstack/react-query';
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  redirect,
} from '@tanstack/react-router';
import { paths } from '../config/paths.ts';
import { inboxSearchSchema } from '../features/notifications/inbox-search.ts';
import { boardSearchSchema, type BoardSearch } from '../features/tasks/board-search.ts';
import { searchValidator } from '../lib/routing/route-params.ts';
import {
  parseRedirectSearch,
  redirectIfSignedIn,
  requirePendingSecondFactor,
  requireSignedIn,
  requireSecondFactorIfSignedIn,
} from './guards.ts';
import { redirectToHomeWorkspace } from './home-redirect.ts';
import { prefetchBoard } from './prefetch-board.ts';
import { boardParams, inviteParams, taskParams, unsubscribeParams, workspaceParams } from './route-params.ts';
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

// Sign-in screens: open to everyone; sign-in and sign-up send a signed-in visitor on.

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: paths.signIn,
  validateSearch: parseRedirectSearch,
  beforeLoad: ({ search }) => redirectIfSignedIn(search),
  component: lazyRouteComponent(() => import('./routes/sign-in.tsx'), 'SignInScreen'),
});

const signUpRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: paths.signUp,
  validateSearch: parseRedirectSearch,
  beforeLoad: ({ search }) => redirectIfSignedIn(search),
  component: lazyRouteComponent(() => import('./routes/sign-up.tsx'), 'SignUpScreen'),
});

const mfaRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: paths.mfa,
  validateSearch: parseRedirectSearch,
  beforeLoad: ({ search }) => requirePendingSecondFactor(search),
  component: lazyRouteComponent(() => import('./routes/mfa.tsx'), 'MfaScreen'),
});

const forgotPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: paths.forgotPassword,
  component: lazyRouteComponent(() => import('./routes/forgot-password.tsx'), 'ForgotPasswordScreen'),
});

const resetPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: paths.resetPassword,
  component: lazyRouteComponent(() => import('./routes/reset-password.tsx'), 'ResetPasswordScreen'),
});

// An invitation's link: signed-out visitors see it, then sign up (or in) and come back to accept.

const inviteRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: paths.invite,
  params: inviteParams,
  beforeLoad: ({ location }) => requireSecondFactorIfSignedIn(location),
  component: lazyRouteComponent(() => import('./routes/invite.tsx'), 'InviteScreen'),
});

// A notification mail's unsubscribe link: open to everyone, signed in or not; only its button acts.

const unsubscribeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: paths.unsubscribe,
  params: unsubscribeParams,
  component: lazyRouteComponent(() => import('./routes/unsubscribe.tsx'), 'UnsubscribeScreen'),
});

// The API reference, open to everyone; its renderer is loaded only here.

const docsApiRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: paths.docsApi,
  component: lazyRouteComponent(() => import('./routes/docs-api.tsx'), 'DocsApiScreen'),
});

const docsApiTourRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: paths.docsApiTour,
  component: lazyRouteComponent(() => import('./routes/docs-api-tour.tsx'), 'DocsApiTourScreen'),
});

// Everything else needs a session, at aal2 for people who have an authenticator app.

const signedInRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'signed-in',
  beforeLoad: ({ location }) => requireSignedIn(location),
});

const homeRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: paths.home,
  // Never shown: `/` always goes on, to a workspace or to `/new`.
  beforeLoad: ({ context }) => redirectToHomeWorkspace(context.queryClient),
});

const accountRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: paths.account,
  component: lazyRouteComponent(() => import('./routes/account.tsx'), 'AccountScreen'),
});

const inboxRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: paths.inbox,
  validateSearch: searchValidator(inboxSearchSchema),
  component: lazyRouteComponent(() => import('./routes/inbox.tsx'), 'InboxScreen'),
});

const newWorkspaceRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: paths.newWorkspace,
  component: lazyRouteComponent(() => import('./routes/new-workspace.tsx'), 'NewWorkspaceScreen'),
});

// A workspace's screens share its header: the workspace switcher, its projects and the account menu.

const workspaceRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: paths.workspace,
  params: workspaceParams,
  component: lazyRouteComponent(() => import('./routes/workspace-layout.tsx'), 'WorkspaceLayout'),
});

const workspaceHomeRoute = createRoute({
  getParentRoute: () => workspaceRoute,
  path: '/',
  component: lazyRouteComponent(() => import('./routes/workspace-home.tsx'), 'WorkspaceHomeScreen'),
});

const boardRoute = createRoute({
  getParentRoute: () => workspaceRoute,
  path: 'p/$key',
  params: boardParams,
  validateSearch: searchValidator(boardSearchSchema),
  loaderDeps: ({ search }: { search: BoardSearch }) => search,
  loader: ({ context, params, deps }) => {
    prefetchBoard(context.queryClient, params.slug, params.key, deps);
  },
  component: lazyRouteComponent(() => import('./routes/board.tsx'), 'BoardScreen'),
});

const taskRoute = createRoute({
  getParentRoute: () => boardRoute,
  path: 't/$number',
  params: taskParams,
  component: lazyRouteComponent(() => import('./routes/task.tsx'), 'TaskScreen'),
});

// Settings: a layout with one tab per child route; `/settings` itself opens the first tab.

const settingsRoute = createRoute({
  getParentRoute: () => workspaceRoute,
  path: 'settings',
  component: lazyRouteComponent(() => import('./routes/settings.tsx'), 'SettingsLayout'),
});

const settingsIndexRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: '/',
  beforeLoad: ({ params }) => {
    throw redirect({ to: paths.settingsGeneral, params, replace: true });
  },
});

const settingsGeneralRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: 'general',
  component: lazyRouteComponent(() => import('./routes/settings-general.tsx'), 'SettingsGeneralScreen'),
});

const settingsMembersRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: 'members',
  component: lazyRouteComponent(() => import('./routes/settings-members.tsx'), 'SettingsMembersScreen'),
});

const settingsInvitationsRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: 'invitations',
  component: lazyRouteComponent(
    () => import('./routes/settings-invitations.tsx'),
    'SettingsInvitationsScreen',
  ),
});

const settingsLabelsRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: 'labels',
  component: lazyRouteComponent(() => import('./routes/settings-labels.tsx'), 'SettingsLabelsScreen'),
});

const settingsProjectsRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: 'projects',
  component: lazyRouteComponent(() => import('./routes/settings-projects.tsx'), 'SettingsProjectsScreen'),
});

const settingsExportRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: 'export',
  component: lazyRouteComponent(() => import('./routes/settings-export.tsx'), 'SettingsExportScreen'),
});

const settingsImportRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: 'import',
  component: lazyRouteComponent(() => import('./routes/settings-import.tsx'), 'SettingsImportScreen'),
});

const settingsWebhooksRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: 'webhooks',
  component: lazyRouteComponent(() => import('./routes/settings-webhooks.tsx'), 'SettingsWebhooksScreen'),
});

const routeTree = rootRoute.addChildren([
  signInRoute,
  signUpRoute,
  mfaRoute,
  forgotPasswordRoute,
  resetPasswordRoute,
  inviteRoute,
  unsubscribeRoute,
  docsApiRoute,
  docsApiTourRoute,
  signedInRoute.addChildren([
    homeRoute,
    accountRoute,
    inboxRoute,
    newWorkspaceRoute,
    workspaceRoute.addChildren([
      workspaceHomeRoute,
      boardRoute.addChildren([taskRoute]),
      settingsRoute.addChildren([
        settingsIndexRoute,
        settingsGeneralRoute,
        settingsMembersRoute,
        settingsInvitationsRoute,
        settingsLabelsRoute,
        settingsProjectsRoute,
        settingsExportRoute,
        settingsImportRoute,
        settingsWebhooksRoute,
      ]),
    ]),
  ]),
]);

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

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
