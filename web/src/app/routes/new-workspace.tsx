/** `/new`: create a workspace. Owned by the shell work of issue 14. */
export function NewWorkspaceScreen() {
  return <h1>New workspace</h1>;
}
