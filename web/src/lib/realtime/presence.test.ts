import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { peopleOf } from './presence.ts';

const MEMBERS = [
  { id: 'u1', name: 'Leo' },
  { id: 'u2', name: 'Maya' },
  { id: 'u3', name: 'Sam' },
];

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
    expect(peopleOf(state, MEMBERS)).toEqual([
      { user_id: 'u1', display_name: 'Leo', project_key: 'WEB', task_key: 'WEB-3' },
      { user_id: 'u2', display_name: 'Maya', project_key: 'WEB', task_key: null },
    ]);
  });

  test('of a person with several tabs, the one with a task open, else the latest', () => {
    const state = {
      u1: [meta('u1', 'Leo', 'WEB', 'WEB-1'), meta('u1', 'Leo', 'WEB'), meta('u1', 'Leo', 'OPS')],
    };
    expect(peopleOf(state, MEMBERS)[0]?.task_key).toBe('WEB-1');
    expect(
      peopleOf({ u1: [meta('u1', 'Leo', 'WEB'), meta('u1', 'Leo', 'OPS')] }, MEMBERS)[0]?.project_key,
    ).toBe('OPS');
  });

  test('narrowed to one board, only the tabs on it count', () => {
    const state = {
      u1: [meta('u1', 'Leo', 'OPS', 'OPS-2'), meta('u1', 'Leo', 'WEB')],
      u2: [meta('u2', 'Maya', 'OPS')],
      u3: [meta('u3', 'Sam', null)],
    };
    expect(peopleOf(state, MEMBERS, 'WEB')).toEqual([
      { user_id: 'u1', display_name: 'Leo', project_key: 'WEB', task_key: null },
    ]);
  });

  test('a person is their key, named by the member list; what the state says of them is not believed', () => {
    const state = {
      u2: [meta('u1', 'Leo', 'WEB', 'WEB-1')],
      mallory: [meta('mallory', 'Mallory', 'WEB')],
      u3: [{ name: 'bob' }, null],
    };
    expect(peopleOf(state, MEMBERS)).toEqual([
      { user_id: 'u2', display_name: 'Maya', project_key: 'WEB', task_key: 'WEB-1' },
      { user_id: 'u3', display_name: 'Sam', project_key: null, task_key: null },
    ]);
  });

  // Fuzzing: whatever anyone tracks under whatever key, only members show, by their own names.
  test('any presence state shows members only, each once, by the member list’s name', () => {
    const anyText = fc.oneof(fc.string(), fc.constantFrom('u1', 'u2', 'u3', 'Leo', 'Maya'));
    const anyMeta = fc.oneof(
      fc.record({
        user_id: anyText,
        display_name: anyText,
        project_key: fc.option(fc.constantFrom('WEB', 'OPS'), { nil: null }),
        task_key: fc.option(fc.string(), { nil: null }),
      }),
      fc.anything(),
    );
    fc.assert(
      fc.property(fc.dictionary(anyText, fc.array(anyMeta, { maxLength: 3 })), (state) => {
        const people = peopleOf(state, MEMBERS);
        const names = new Map(MEMBERS.map((member) => [member.id, member.name]));
        for (const person of people) expect(person.display_name).toBe(names.get(person.user_id));
        expect(new Set(people.map((person) => person.user_id)).size).toBe(people.length);
      }),
    );
  });
});
