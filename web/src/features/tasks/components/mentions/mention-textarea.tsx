import {
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ChangeEvent,
  type KeyboardEvent,
  type TextareaHTMLAttributes,
} from 'react';
import getCaretCoordinates from 'textarea-caret';
import { Avatar } from '../../../../components/ui/avatar.tsx';
import {
  findMentionQuery,
  insertMention,
  matchMembers,
  type MentionQuery,
} from '../../../../lib/mentions/mention-query.ts';
import { useMentionMembers } from './mention-members.ts';
import styles from './mentions.module.css';

type TextareaProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'value' | 'onChange'>;

interface MentionTextareaProps extends TextareaProps {
  value: string;
  /** The new text: typed, or with a mention inserted (which the draft keeps like any other change). */
  onValueChange: (text: string) => void;
}

/** How many members the picker lists at once; typing more narrows it. */
const SHOWN = 8;

/**
 * A textarea where `@` opens a picker of the workspace's members (MentionMembers), under the `@` itself.
 * Typing after the `@` filters it, ↑/↓ move, Enter or Tab inserts `<@uuid>` and a space, Esc closes it,
 * a click inserts too. Focus never leaves the textarea: the list is named by `aria-controls`, the option
 * in hand by `aria-activedescendant` (the textarea keeps its own role, as a textarea may have no other).
 * Keys are read from the field itself (its value and caret), not from state, so nothing typed fast is
 * lost or misread; every other key, Ctrl/⌘+Enter included, goes on to the editor's own `onKeyDown`.
 */
export function MentionTextarea({ value, onValueChange, onKeyDown, ...props }: MentionTextareaProps) {
  const members = useMentionMembers();
  const listId = useId();
  const ref = useRef<HTMLTextAreaElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const [at, setAt] = useState<MentionQuery | null>(null);
  // The `@` whose picker Esc closed: it stays closed until another `@` is typed.
  const [dismissed, setDismissed] = useState<number | null>(null);
  const [active, setActive] = useState({ query: '', index: 0 });
  const [focused, setFocused] = useState(false);
  // Where the caret goes once an inserted mention is drawn.
  const caretAfter = useRef<number | null>(null);
  // Right after an inserted mention's space: a space typed there is that one, not a second.
  const spaceAt = useRef<number | null>(null);

  const matchesOf = (query: MentionQuery | null) => (query ? matchMembers(members, query.query) : []);
  const isOpen = (query: MentionQuery | null): query is MentionQuery =>
    query !== null && query.start !== dismissed && members.length > 0;
  const open = focused && isOpen(at);
  const matches = open ? matchesOf(at).slice(0, SHOWN) : [];
  const activeIndex = at && active.query === at.query ? Math.min(active.index, matches.length - 1) : 0;
  const optionId = (index: number) => `${listId}-${index}`;

  useLayoutEffect(() => {
    if (caretAfter.current === null || !ref.current) return;
    ref.current.setSelectionRange(caretAfter.current, caretAfter.current);
    caretAfter.current = null;
  }, [value]);

  useLayoutEffect(() => {
    if (!open) return;
    const place = () => {
      if (ref.current && listRef.current) placeUnder(listRef.current, ref.current, at.start);
    };
    place();
    // The window turned or resized: the text wraps anew, and the `@` with it.
    window.addEventListener('resize', place);
    return () => window.removeEventListener('resize', place);
  }, [open, at, value]);

  useLayoutEffect(() => {
    if (open) listRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [open]);

  const follow = (field: HTMLTextAreaElement) => {
    const next = findMentionQuery(field.value, field.selectionStart, field.selectionEnd);
    setAt((current) =>
      current?.start === next?.start && current?.end === next?.end && current?.query === next?.query
        ? current
        : next,
    );
  };

  const insert = (query: MentionQuery, userId: string) => {
    const field = ref.current;
    const next = insertMention(field?.value ?? value, query, userId);
    caretAfter.current = next.caret;
    spaceAt.current = next.caret;
    setAt(null);
    onValueChange(next.text);
  };

  const keyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    const field = event.currentTarget;
    if (event.nativeEvent.isComposing) return onKeyDown?.(event);
    if (!['Shift', 'Control', 'Alt', 'Meta'].includes(event.key)) {
      const swallow = event.key === ' ' && spaceAt.current === field.selectionStart && noSelection(field);
      spaceAt.current = null;
      if (swallow && field.value.charAt(field.selectionStart - 1) === ' ') return event.preventDefault();
    }
    const query = findMentionQuery(field.value, field.selectionStart, field.selectionEnd);
    const list = isOpen(query) ? matchesOf(query).slice(0, SHOWN) : [];
    const plain = !event.ctrlKey && !event.metaKey && !event.altKey;
    if (query && list.length > 0 && plain) {
      const index = active.query === query.query ? Math.min(active.index, list.length - 1) : 0;
      const move = (by: number) => {
        event.preventDefault();
        setActive({ query: query.query, index: (index + by + list.length) % list.length });
      };
      if (event.key === 'ArrowDown') return move(1);
      if (event.key === 'ArrowUp') return move(-1);
      const chosen = list[index];
      if ((event.key === 'Enter' && !event.shiftKey) || (event.key === 'Tab' && !event.shiftKey)) {
        event.preventDefault();
        if (chosen) insert(query, chosen.user_id);
        return;
      }
    }
    if (query && isOpen(query) && event.key === 'Escape') {
      // The picker's Esc: it neither cancels the edit nor closes the panel.
      event.preventDefault();
      event.stopPropagation();
      setDismissed(query.start);
      return;
    }
    onKeyDown?.(event);
  };

  const change = (event: ChangeEvent<HTMLTextAreaElement>) => {
    spaceAt.current = null;
    onValueChange(event.target.value);
    follow(event.target);
  };

  return (
    <div className={styles.field}>
      <textarea
        {...props}
        ref={ref}
        value={value}
        onChange={change}
        onKeyDown={keyDown}
        onSelect={(event) => follow(event.currentTarget)}
        onFocus={(event) => {
          setFocused(true);
          props.onFocus?.(event);
        }}
        onBlur={(event) => {
          setFocused(false);
          props.onBlur?.(event);
        }}
        aria-autocomplete="list"
        aria-controls={open ? listId : undefined}
        aria-activedescendant={open && matches.length > 0 ? optionId(activeIndex) : undefined}
        // Esc belongs to the open picker: the panel and the editor leave it alone.
        data-editing={open ? '' : undefined}
      />
      {open && (
        <ul ref={listRef} id={listId} role="listbox" aria-label="Mention a member" className={styles.picker}>
          {matches.length === 0 ? (
            <li className={styles.none} role="presentation">
              No member matches “{at.query}”
            </li>
          ) : (
            matches.map((member, index) => (
              <li
                key={member.user_id}
                id={optionId(index)}
                role="option"
                aria-selected={index === activeIndex}
                className={styles.option}
                // Keeps focus (and the caret) in the textarea.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => insert(at, member.user_id)}
                onMouseMove={() => {
                  if (index !== activeIndex) setActive({ query: at.query, index });
                }}
              >
                <Avatar name={member.display_name} id={member.user_id} src={member.avatar_url} decorative />
                <span className={styles.name}>{member.display_name}</span>
                <span className={styles.email}>{member.email}</span>
              </li>
            ))
          )}
        </ul>
      )}
    </div>
  );
}

/** A gap between the line with the `@` and the picker, in px. */
const GAP = 4;

/**
 * Puts the picker just under the `@` at `position`, as far left as fits in the field. The field's box is
 * the picker's containing block (the textarea sits at its top left), so the caret's coordinates apply.
 */
function placeUnder(picker: HTMLElement, field: HTMLTextAreaElement, position: number): void {
  const caret = getCaretCoordinates(field, position);
  const left = Math.min(caret.left - field.scrollLeft, field.offsetWidth - picker.offsetWidth);
  picker.style.top = `${Math.round(caret.top + caret.height - field.scrollTop + GAP)}px`;
  picker.style.left = `${Math.max(0, Math.round(left))}px`;
}

const noSelection = (field: HTMLTextAreaElement): boolean => field.selectionStart === field.selectionEnd;
