import { Outlet } from '@tanstack/react-router';

/** `/w/:slug/p/:key`: the project's board; the task panel opens over it. */
export function BoardScreen() {
  return (
    <>
      <h1>Board</h1>
      <Outlet />
    </>
  );
}
