import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Markdown } from '../panel/markdown.tsx';
import type { Member } from '../panel/task-context.ts';
import { MentionMembers } from './mention-members.ts';
import { MentionTextarea } from './mention-textarea.tsx';

const LEO = '2c4e6a8b-1d3f-4a5b-9c7d-0e2f4a6b8c0d';
const LENA = '3d5f7b9c-2e4a-4b6c-8d8e-1f3a5b7c9d1e';
const MAYA = '4e6a8c0d-3f5b-4c7d-9e9f-2a4b6c8d0e2f';
const GONE = '7d1f0c22-1a2b-4c3d-8e4f-5a6b7c8d9e0f';

const member = (user_id: string, display_name: string): Member => ({
  object: 'member',
  user_id,
  workspace_id: '00000000-0000-4000-8000-000000000000',
  role: 'member',
  display_name,
  email: `${display_name.toLowerCase()}@example.com`,
  avatar_url: null,
  version: 1,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
});
const MEMBERS = [member(LEO, 'Leo'), member(LENA, 'Lena'), member(MAYA, 'Maya')];

function Field({ onKeyDown }: { onKeyDown?: () => void }) {
  const [text, setText] = useState('');
  return (
    <MentionMembers value={MEMBERS}>
      <MentionTextarea aria-label="Comment" value={text} onValueChange={setText} onKeyDown={onKeyDown} />
      <output>{text}</output>
    </MentionMembers>
  );
}

const field = () => screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Comment' });
const active = () => {
  const id = field().getAttribute('aria-activedescendant');
  return id ? document.getElementById(id)?.textContent : null;
};

describe('MentionTextarea', () => {
  it('@ opens the members, typing filters, arrows move, Enter inserts the token and a space', async () => {
    const user = userEvent.setup();
    const onKeyDown = vi.fn();
    render(<Field onKeyDown={onKeyDown} />);

    await user.type(field(), 'Hey @');
    const list = screen.getByRole('listbox', { name: 'Mention a member' });
    expect(field().getAttribute('aria-controls')).toBe(list.id);
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      'LELenalena@example.com',
      'LELeoleo@example.com',
      'MAMayamaya@example.com',
    ]);

    await user.type(field(), 'le');
    expect(screen.getAllByRole('option')).toHaveLength(2);
    expect(active()).toContain('Lena');
    await user.keyboard('{ArrowDown}');
    expect(active()).toContain('Leo');
    await user.keyboard('{ArrowDown}');
    expect(active()).toContain('Lena');
    await user.keyboard('{ArrowUp}');
    expect(active()).toContain('Leo');
    await user.keyboard('{Enter}');

    expect(screen.queryByRole('listbox')).toBeNull();
    expect(field().value).toBe(`Hey <@${LEO}> `);
    // A space typed right after the inserted one is that one; then typing goes on at the caret.
    await user.type(field(), ' please look', { skipClick: true });
    expect(field().value).toBe(`Hey <@${LEO}> please look`);
    // The picker's keys were its own; the editor saw the rest.
    expect(onKeyDown).not.toHaveBeenCalledWith(expect.objectContaining({ key: 'Enter' }));
  });

  it('Tab inserts too, and a click on a member', async () => {
    const user = userEvent.setup();
    render(<Field />);

    await user.type(field(), '@ma');
    await user.keyboard('{Tab}');
    expect(field().value).toBe(`<@${MAYA}> `);
    expect(document.activeElement).toBe(field());

    await user.type(field(), '@', { skipClick: true });
    await user.click(screen.getByRole('option', { name: /Leo/ }));
    expect(field().value).toBe(`<@${MAYA}> <@${LEO}> `);
    expect(document.activeElement).toBe(field());
  });

  it('Esc closes the picker and the key goes no further; Enter then is the editor’s', async () => {
    const user = userEvent.setup();
    const onKeyDown = vi.fn();
    render(<Field onKeyDown={onKeyDown} />);

    await user.type(field(), 'mail @le');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(onKeyDown).not.toHaveBeenCalledWith(expect.objectContaining({ key: 'Escape' }));
    await user.keyboard('{Enter}');
    expect(field().value).toBe('mail @le\n');
    expect(onKeyDown).toHaveBeenCalledWith(expect.objectContaining({ key: 'Enter' }));
  });

  it('an address is not a mention', async () => {
    const user = userEvent.setup();
    render(<Field />);
    await user.type(field(), 'leo@exa');
    expect(screen.queryByRole('listbox')).toBeNull();
  });
});

describe('Markdown mentions', () => {
  it('a mention is a chip with the current name, a former member reads as such, code stays as written', () => {
    const { container } = render(
      <MentionMembers value={MEMBERS}>
        <Markdown>{`Hey <@${LEO}>, ask **<@${GONE}>**\n\n\`<@${MAYA}>\``}</Markdown>
      </MentionMembers>,
    );
    const chips = [...container.querySelectorAll('[data-mention]')].map((chip) => chip.textContent);
    expect(chips).toEqual(['@Leo', '@former member']);
    expect(container.querySelector('strong [data-mention]')).not.toBeNull();
    expect(container.querySelector('code')?.textContent).toBe(`<@${MAYA}>`);
    expect(container.querySelector('a')).toBeNull();
  });
});
