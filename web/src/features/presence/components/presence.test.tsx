import { act, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { liveStore } from '../../../lib/realtime/live-store.ts';
import { BoardPresence } from './board-presence.tsx';
import { ConnectionStatus } from './connection-status.tsx';

const meta = (user: string, name: string, project: string, task: string | null = null) => ({
  user_id: user,
  display_name: name,
  project_key: project,
  task_key: task,
  presence_ref: user,
});
/** The workspace's members, as the member list gives them. */
const MEMBERS = [
  { id: 'u1', name: 'Ada Lovelace' },
  { id: 'u2', name: 'Bob Kahn' },
  { id: 'u3', name: 'Sam Ops' },
];

afterEach(() => {
  act(() => liveStore.reset());
  vi.useRealTimers();
});

describe('BoardPresence', () => {
  test('shows the people on this board, with the task each has open', () => {
    render(<BoardPresence projectKey="WEB" meId="u1" members={MEMBERS} />);
    act(() =>
      liveStore.setPresence({
        u1: [meta('u1', 'Ada Lovelace', 'WEB')],
        u2: [meta('u2', 'Bob Kahn', 'WEB', 'WEB-7')],
        u3: [meta('u3', 'Sam Ops', 'OPS')],
      }),
    );
    const list = screen.getByRole('list', { name: 'On this board now' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'ALAda Lovelace (you)',
      'BKBob Kahn, viewing WEB-7',
    ]);
    expect(items[1]?.getAttribute('title')).toBe('Bob Kahn, viewing WEB-7');
  });

  test('shows only current members, each by the name the member list gives, whatever presence claims', () => {
    render(<BoardPresence projectKey="WEB" meId="u1" members={MEMBERS} />);
    act(() =>
      liveStore.setPresence({
        u1: [meta('u1', 'Ada Lovelace', 'WEB')],
        // A member's key with a forged name (and someone else's id) in the state.
        u2: [meta('u1', 'The CEO', 'WEB', 'WEB-7')],
        // A key that is no member's: a removed member, or a made-up one.
        intruder: [meta('intruder', 'Mallory', 'WEB')],
        'u9-removed': [meta('u9-removed', 'Former colleague', 'WEB')],
      }),
    );
    const list = screen.getByRole('list', { name: 'On this board now' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'ALAda Lovelace (you)',
      'BKBob Kahn, viewing WEB-7',
    ]);
    expect(items.map((item) => item.getAttribute('data-presence'))).toEqual(['u1', 'u2']);
    expect(list.textContent).not.toMatch(/CEO|Mallory|Former/);
  });

  test('shows nothing when nobody is there', () => {
    render(<BoardPresence projectKey="WEB" meId="u1" members={MEMBERS} />);
    expect(screen.queryByRole('list')).toBeNull();
  });
});

describe('ConnectionStatus', () => {
  test('says "Reconnecting…" in a status region while the channel is down, and nothing when live', () => {
    render(<ConnectionStatus />);
    const status = screen.getByRole('status');
    act(() => liveStore.setConnection('live'));
    expect(status.textContent).toBe('');
    act(() => liveStore.setConnection('reconnecting'));
    expect(status.textContent).toBe('Reconnecting…');
    act(() => liveStore.setConnection('live'));
    expect(status.textContent).toBe('');
  });

  test('a first join says nothing for a moment, then "Connecting…"', () => {
    vi.useFakeTimers();
    render(<ConnectionStatus />);
    const status = screen.getByRole('status');
    expect(status.textContent).toBe('');
    act(() => vi.advanceTimersByTime(3_000));
    expect(status.textContent).toBe('Connecting…');
  });
});
