import { getRouteApi, Outlet } from '@tanstack/react-router';
import { lazy, Suspense, useEffect } from 'react';
import { LoadError } from '../../components/ui/load-error.tsx';
import { useWorkspace } from '../../features/workspaces/api/get-workspace.ts';
import { rememberWorkspace } from '../../features/workspaces/home-workspace.ts';
import { ApiError } from '../../lib/api/api-error.ts';
import { WorkspaceCommands } from '../workspace-commands.tsx';
import { useMe } from '../../features/account/api/get-me.ts';
import { useLiveWorkspace } from '../live/use-live-workspace.ts';
import { RoutePending } from './route-pending.tsx';
import { useDefaultTimeZone } from '../../features/account/use-default-time-zone.ts';

const route = getRouteApi('/signed-in/w/$slug');

// Shown only for an unknown workspace: not part of a workspace's first load.
const NotFound = lazy(() => import('./not-found.tsx').then((module) => ({ default: module.NotFound })));

/** `/w/:slug`: the workspace's screens, once the caller is known to be a member; remembered for `/`. */
export function WorkspaceLayout() {
  const { slug } = route.useParams();
  const workspace = useWorkspace(slug);
  const isMember = workspace.isSuccess;
  const me = useMe();
  // Live while any of the workspace's screens is shown: others' changes, presence, catch-up.
  useLiveWorkspace(slug, workspace.data?.id, me.data?.id);
  useDefaultTimeZone(me.data);

  useEffect(() => {
    if (isMember) rememberWorkspace(slug);
  }, [isMember, slug]);

  if (workspace.isPending) return <RoutePending />;
  if (workspace.error instanceof ApiError && workspace.error.status === 404)
    return <WorkspaceNotFound slug={slug} />;
  if (workspace.error) {
    return (
      <div className="workspace-page">
        <LoadError
          what="This workspace"
          error={workspace.error}
          onRetry={() => void workspace.refetch()}
          retrying={workspace.isFetching}
        />
      </div>
    );
  }
  return (
    <>
      <Outlet />
      <WorkspaceCommands />
    </>
  );
}

/** Not a member, or no such workspace: the API answers both alike, and so does this. */
function WorkspaceNotFound({ slug }: { slug: string }) {
  return (
    <div className="workspace-page">
      <Suspense fallback={<RoutePending />}>
        <NotFound title="Workspace not found" homeLabel="Go to your workspaces">
          There is no workspace “{slug}” that you are a member of. Check the address, or ask its owner for an
          invitation.
        </NotFound>
      </Suspense>
    </div>
  );
}
