import { useLayoutEffect, useRef, useState } from 'react';
import { toast } from '../../../../components/ui/toast.ts';
import { withItemTicked } from './checklist-item.ts';
import type { Task } from './task-context.ts';
import type { SaveOutcome } from './use-task-saver.ts';

interface Tick {
  offset: number;
  ticked: boolean;
}

type Save = (task: Task, patch: { description: string }, done: string) => Promise<SaveOutcome>;

/**
 * Checklist items ticked in a task's description, saved one after another: each with the `If-Match` of
 * the version the one before it made, so a second tick while the first saves is kept, not refused as a
 * conflict or dropped. A tick waiting its turn shows at once in `shown`, the description to draw.
 */
export function useChecklistTicks(task: Task, save: Save) {
  const [waiting, setWaiting] = useState<readonly Tick[]>([]);
  const queue = useRef<Tick[]>([]);
  const running = useRef(false);
  const latest = useRef(task);
  useLayoutEffect(() => {
    latest.current = task;
  });

  const sendInTurn = async () => {
    running.current = true;
    let current = latest.current;
    for (let next = queue.current.shift(); next; next = queue.current.shift()) {
      setWaiting([...queue.current]);
      const description = withItemTicked(current.description, next.offset, next.ticked);
      if (description === null) continue;
      const outcome = await save(current, { description }, next.ticked ? 'Item ticked' : 'Item unticked');
      if (outcome.kind === 'saved') {
        current = outcome.task;
        continue;
      }
      queue.current = [];
      setWaiting([]);
      toast.error(
        outcome.kind === 'conflict'
          ? 'The description changed meanwhile: here it is now. Tick the item again if it still needs it.'
          : outcome.message,
      );
    }
    running.current = false;
  };

  const tick = (offset: number, ticked: boolean) => {
    queue.current.push({ offset, ticked });
    setWaiting([...queue.current]);
    if (!running.current) void sendInTurn();
  };

  const shown = waiting.reduce(
    (text, { offset, ticked }) => withItemTicked(text, offset, ticked) ?? text,
    task.description,
  );
  return { shown, tick };
}
