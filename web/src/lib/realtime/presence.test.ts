import { describe, expect, test } from 'vitest';
import { peopleOf } from './presence.ts';

const meta = (user: string, name: string, project: string | null, task: string | null = null) => ({
  user_id: user,
  display_name: name,
  project_key: project,
  task_key: task,
  presence_ref: `${user}-${task ?? 'none'}`,
});

describe('peopleOf', () => {
  test('one entry per person, sorted by name, without the presence refs', () => {
    const state = { u2: [meta('u2', 'Maya', 'WEB')], u1: [meta('u1', 'Leo', 'WEB', 'WEB-3')] };
    expect(peopleOf(state)).toEqual([
      { user_id: 'u1', display_name: 'Leo', project_key: 'WEB', task_key: 'WEB-3' },
      { user_id: 'u2', display_name: 'Maya', project_key: 'WEB', task_key: null },
    ]);
  });

  test('of a person with several tabs, the one with a task open, else the latest', () => {
    const state = {
      u1: [meta('u1', 'Leo', 'WEB', 'WEB-1'), meta('u1', 'Leo', 'WEB'), meta('u1', 'Leo', 'OPS')],
    };
    expect(peopleOf(state)[0]?.task_key).toBe('WEB-1');
    expect(peopleOf({ u1: [meta('u1', 'Leo', 'WEB'), meta('u1', 'Leo', 'OPS')] })[0]?.project_key).toBe(
      'OPS',
    );
  });

  test('narrowed to one board, only the tabs on it count', () => {
    const state = {
      u1: [meta('u1', 'Leo', 'OPS', 'OPS-2'), meta('u1', 'Leo', 'WEB')],
      u2: [meta('u2', 'Maya', 'OPS')],
      u3: [meta('u3', 'Sam', null)],
    };
    expect(peopleOf(state, 'WEB')).toEqual([
      { user_id: 'u1', display_name: 'Leo', project_key: 'WEB', task_key: null },
    ]);
  });

  test('metas that are not presence states are left out', () => {
    expect(peopleOf({ x: [{ name: 'bob' }, null], y: [{ user_id: 'u', display_name: 'U' }] })).toEqual([
      { user_id: 'u', display_name: 'U', project_key: null, task_key: null },
    ]);
  });
});
