import { Outlet } from '@tanstack/react-router';

/** `/w/:slug`: the workspace's header (switcher, projects, account menu) above its screens. */
export function WorkspaceLayout() {
  return <Outlet />;
}
