/** `/w/:slug/p/:key/t/:number`: the task panel over the board, or a full page when opened on its own. */
export function TaskScreen() {
  return <h2>Task</h2>;
}
