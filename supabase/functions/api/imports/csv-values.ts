/**
 * A CSV cell's text read as a task's priority or assignee. Priorities by name, case-insensitive, with
 * the spellings other tools export: `P0`…`P4` (P0 the most urgent, as Jira-style trackers number them:
 * P0 urgent, P1 high, P2 medium, P3 low, P4 none), and a bare digit as Linear exports it (0 none,
 * 1 urgent, 2 high, 3 medium, 4 low). Anything else is no priority, with a warning.
 */
import type { TaskPriority } from '../../_shared/api-types.ts';
import { TASK_PRIORITIES } from '../../_shared/vocabulary/spec-values.ts';

const PRIORITY_WORDS: Readonly<Record<string, TaskPriority>> = {
  '': 'none',
  'no priority': 'none',
  p0: 'urgent',
  p1: 'high',
  p2: 'medium',
  p3: 'low',
  p4: 'none',
  '0': 'none',
  '1': 'urgent',
  '2': 'high',
  '3': 'medium',
  '4': 'low',
  critical: 'urgent',
  highest: 'urgent',
  blocker: 'urgent',
  normal: 'medium',
  med: 'medium',
  lowest: 'low',
  minor: 'low',
  major: 'high',
};

export function readPriority(cell: string): TaskPriority | null {
  const word = cell.trim().toLowerCase().replace(/\s+/g, ' ');
  const named = TASK_PRIORITIES.find((priority) => priority === word);
  if (named) return named;
  return Object.hasOwn(PRIORITY_WORDS, word) ? (PRIORITY_WORDS[word] ?? null) : null;
}

/** An e-mail address as a cell holds it (`Ada <ada@example.com>` too), or null. */
export function readEmail(cell: string): string | null {
  const text = cell.trim();
  const bracketed = /<([^<>\s]+@[^<>\s]+)>/.exec(text);
  const address = bracketed?.[1] ?? text;
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address) ? address.toLowerCase() : null;
}
