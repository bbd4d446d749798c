/** `/w/:slug`: the workspace home: projects, my open tasks, recent activity. */
export function WorkspaceHomeScreen() {
  return <h1>Workspace</h1>;
}
