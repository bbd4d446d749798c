import { useCanGoBack, useMatch } from '@tanstack/react-router';
import { useState } from 'react';

/**
 * Whether the task route shows the task as a page of its own rather than as a panel over the board: it
 * does when the app started on the task's address (a link opened in a new tab, pasted, or shared), so
 * there is no board the person came from. Decided once, when the task opens. The board route may call it
 * to skip rendering the board under a task page.
 */
export function useTaskOpenedOnItsOwn(): boolean {
  const taskMatch = useMatch({ from: '/signed-in/w/$slug/p/$key/t/$number', shouldThrow: false });
  const canGoBack = useCanGoBack();
  const taskId = taskMatch?.id;
  const [decided, setDecided] = useState<{ taskId: string | undefined; onItsOwn: boolean }>({
    taskId,
    onItsOwn: !canGoBack,
  });
  if (decided.taskId !== taskId) {
    const next = { taskId, onItsOwn: !canGoBack };
    setDecided(next);
    return taskId !== undefined && next.onItsOwn;
  }
  return taskId !== undefined && decided.onItsOwn;
}
