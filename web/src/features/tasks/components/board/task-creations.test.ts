import { describe, expect, it, vi } from 'vitest';
import { createTaskCreations, creationColumn } from './task-creations.ts';

const TODO = creationColumn('acme', 'WEB', 'todo');
const DONE = creationColumn('acme', 'WEB', 'done');

function creations() {
  let next = 0;
  return createTaskCreations(() => `key-${++next}`);
}

describe('the quick-add queue of each column', () => {
  it('keeps titles in the order submitted, each saving under its own key', () => {
    const queue = creations();
    const first = queue.add(TODO, 'Homepage copy');
    const second = queue.add(TODO, 'Font pairing');
    expect(first.id).not.toBe(second.id);
    expect(queue.in(TODO)).toEqual([
      { id: 'key-1', title: 'Homepage copy', state: 'saving', namesakes: [] },
      { id: 'key-2', title: 'Font pairing', state: 'saving', namesakes: [] },
    ]);
    expect(queue.in(DONE)).toEqual([]);
  });

  it('gives the same list until its own column changes, so other columns do not draw again', () => {
    const queue = creations();
    queue.add(TODO, 'Homepage copy');
    const todo = queue.in(TODO);
    const done = queue.in(DONE);
    queue.add(DONE, 'Sitemap');
    expect(queue.in(TODO)).toBe(todo);
    expect(queue.in(DONE)).not.toBe(done);
  });

  it('keeps a failed title with its reason; a retry sends it again under the same key, after the others', () => {
    const queue = creations();
    const failing = queue.add(TODO, 'Order new laptops', ['an-older-namesake']);
    queue.add(TODO, 'Renew domain names');
    queue.fail(TODO, failing.id, 'Could not reach the API.');
    expect(queue.in(TODO)[0]).toEqual({
      id: failing.id,
      title: 'Order new laptops',
      state: 'failed',
      reason: 'Could not reach the API.',
      namesakes: ['an-older-namesake'],
    });

    const retried = queue.retry(TODO, failing.id);
    expect(retried).toEqual({
      id: failing.id,
      title: 'Order new laptops',
      state: 'saving',
      namesakes: ['an-older-namesake'],
    });
    expect(queue.in(TODO).map((creation) => creation.title)).toEqual([
      'Renew domain names',
      'Order new laptops',
    ]);
  });

  it('retries only a failed creation, once', () => {
    const queue = creations();
    const saving = queue.add(TODO, 'Press kit');
    expect(queue.retry(TODO, saving.id)).toBeUndefined();
    queue.fail(TODO, saving.id, 'Something went wrong on our side.');
    expect(queue.retry(TODO, saving.id)).toBeDefined();
    expect(queue.retry(TODO, saving.id)).toBeUndefined();
    expect(queue.retry(TODO, 'no-such-key')).toBeUndefined();
  });

  it('forgets a saved or discarded title, and tells its readers of every change', () => {
    const queue = creations();
    const listener = vi.fn();
    const unsubscribe = queue.subscribe(listener);
    const saved = queue.add(TODO, 'Favicon');
    const discarded = queue.add(TODO, 'Team photos');
    queue.remove(TODO, saved.id);
    queue.fail(TODO, discarded.id, 'The project is archived.');
    queue.remove(TODO, discarded.id);
    expect(queue.in(TODO)).toEqual([]);
    expect(listener).toHaveBeenCalledTimes(5);

    queue.remove(TODO, discarded.id);
    unsubscribe();
    queue.add(TODO, 'Careers page');
    expect(listener).toHaveBeenCalledTimes(5);
  });
});
