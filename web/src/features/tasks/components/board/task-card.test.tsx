import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  RouterProvider,
} from '@tanstack/react-router';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Task } from '../../api/list-tasks.ts';
import { boardPeople } from './board-people.ts';
import { TaskCard } from './task-card.tsx';

const maya = { id: '7d0f1f8e-2f5a-4c3e-9d61-2b1f0c1d7a10', name: 'Maya Lopez' };
const design = { id: '4d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09', name: 'design', color: '#8b5cf6' };

const task = {
  object: 'task',
  id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  project_id: '6b1f0c2d-3e4a-4b5c-8d6e-7f8091a2b3c4',
  key: 'WEB-12',
  number: 12,
  title: 'Ship the billing page',
  description: '',
  status: 'todo',
  priority: 'high',
  assignee_id: maya.id,
  due_date: '2020-01-15',
  position: 'a0',
  label_ids: [design.id],
  checklist: { done: 0, total: 0 },
  created_by: maya.id,
  completed_at: null,
  version: 3,
  created_at: '2020-01-01T00:00:00Z',
  updated_at: '2020-01-01T00:00:00Z',
} satisfies Task;

/** The card inside a router that knows the task route, as the board renders it. */
async function renderCard(card: Task) {
  const root = createRootRoute();
  const routes = ['/', '/w/$slug/p/$key/t/$number'].map((path) =>
    createRoute({
      getParentRoute: () => root,
      path,
      component: () => (
        <TaskCard task={card} slug="acme" projectKey="WEB" people={boardPeople([maya], [design])} />
      ),
    }),
  );
  const router = createRouter({ routeTree: root.addChildren(routes), history: createMemoryHistory() });
  render(<RouterProvider router={router} />);
  return screen.findByRole('link');
}

describe('TaskCard', () => {
  it('is a link to the task carrying its key, with its title, priority, assignee and labels', async () => {
    const link = await renderCard(task);
    expect(link.getAttribute('href')).toBe('/w/acme/p/WEB/t/12');
    expect(link.getAttribute('data-task-key')).toBe('WEB-12');
    expect(link.textContent).toContain('WEB-12');
    expect(link.textContent).toContain('Ship the billing page');
    expect(screen.getByRole('img', { name: 'High' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Maya Lopez' }).textContent).toBe('ML');
    expect(link.textContent).toContain('design');
  });

  it('says a past due date is overdue', async () => {
    const link = await renderCard(task);
    expect(link.textContent).toContain('Overdue · Jan 15, 2020');
  });

  it('does not call a done task overdue, and shows no avatar when nobody is assigned', async () => {
    const link = await renderCard({ ...task, status: 'done', assignee_id: null });
    expect(link.textContent).toContain('Due Jan 15, 2020');
    expect(link.textContent).not.toContain('Overdue');
    expect(screen.queryByRole('img', { name: 'Maya Lopez' })).toBeNull();
  });

  it('shows no mark for no priority, and no row of labels and dates when the task has neither', async () => {
    const link = await renderCard({ ...task, priority: 'none', label_ids: [], due_date: null });
    expect(screen.queryByRole('img', { name: 'No priority' })).toBeNull();
    expect(link.textContent).toBe('WEB-12MLShip the billing page');
  });
});
