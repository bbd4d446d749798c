import { Outlet } from '@tanstack/react-router';
import { WorkspaceCommands } from '../workspace-commands.tsx';

/** `/w/:slug`: the workspace's header (switcher, projects, account menu) above its screens. */
export function WorkspaceLayout() {
  return (
    <>
      <Outlet />
      <WorkspaceCommands />
    </>
  );
}
