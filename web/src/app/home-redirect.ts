import type { QueryClient } from '@tanstack/react-query';
import { redirect } from '@tanstack/react-router';
import { paths } from '../config/paths.ts';
import { workspacesQueryOptions } from '../features/workspaces/api/list-workspaces.ts';
import { homeWorkspaceSlug, lastWorkspace } from '../features/workspaces/home-workspace.ts';

/** `/`: on to the workspace used last in this browser (if still a member), else the first, else `/new`. */
export async function redirectToHomeWorkspace(queryClient: QueryClient): Promise<never> {
  const workspaces = await queryClient.fetchQuery(workspacesQueryOptions());
  const slug = homeWorkspaceSlug(workspaces, lastWorkspace());
  if (slug === null) throw redirect({ to: paths.newWorkspace, replace: true });
  throw redirect({ to: paths.workspace, params: { slug }, replace: true });
}
