import { forwardRef, useEffect, useState, type ReactNode } from 'react';
import { Menu, MenuItem, MenuLabel, MenuSeparator } from '../../../../components/ui/menu.tsx';
import { isFiltered, withoutFilters, type BoardSearch } from '../../board-search.ts';
import { LabelChip } from '../task-meta/label-chip.tsx';
import { PRIORITIES, PRIORITY_LABELS, PriorityIcon } from '../task-meta/priority.tsx';
import type { BoardLabel, BoardPerson } from './board-people.ts';
import styles from './filter-bar.module.css';

/** How long typing pauses before the search text goes into the URL (and the requests). */
const SEARCH_DELAY_MS = 250;

interface FilterBarProps {
  search: BoardSearch;
  onSearchChange: (next: BoardSearch, options?: { replace: boolean }) => void;
  members: readonly BoardPerson[];
  labels: readonly BoardLabel[];
}

/** Assignee, label, priority and text filters, all kept in the URL; "Clear filters" when any is set. */
export const FilterBar = forwardRef<HTMLInputElement, FilterBarProps>(function FilterBar(
  { search, onSearchChange, members, labels },
  searchRef,
) {
  const set = (patch: Partial<BoardSearch>) => onSearchChange({ ...search, ...patch });
  const assignee = describeAssignee(search.assignee, members);
  const label = labels.find((l) => l.id === search.label);
  const priorities = search.priority?.split(',') ?? [];

  return (
    <div className={styles.bar} role="search" aria-label="Filter tasks">
      <SearchField
        ref={searchRef}
        value={search.q ?? ''}
        onChange={(q) => onSearchChange({ ...search, q }, { replace: true })}
      />
      <Menu
        label="Assignee"
        trigger={<FilterButton active={search.assignee !== undefined}>{assignee ?? 'Assignee'}</FilterButton>}
      >
        <MenuItem onSelect={() => set({ assignee: undefined })}>
          <Check on={search.assignee === undefined} /> Anyone
        </MenuItem>
        <MenuItem onSelect={() => set({ assignee: 'me' })}>
          <Check on={search.assignee === 'me'} /> Me
        </MenuItem>
        <MenuItem onSelect={() => set({ assignee: 'none' })}>
          <Check on={search.assignee === 'none'} /> Unassigned
        </MenuItem>
        {members.length > 0 && <MenuSeparator />}
        {members.map((member) => (
          <MenuItem key={member.id} onSelect={() => set({ assignee: member.id })}>
            <Check on={search.assignee === member.id} /> {member.name}
          </MenuItem>
        ))}
      </Menu>
      <Menu
        label="Label"
        trigger={<FilterButton active={label !== undefined}>{label?.name ?? 'Label'}</FilterButton>}
      >
        <MenuItem onSelect={() => set({ label: undefined })}>
          <Check on={search.label === undefined} /> Any label
        </MenuItem>
        {labels.length === 0 ? (
          <MenuLabel>The workspace has no labels yet</MenuLabel>
        ) : (
          labels.map((l) => (
            <MenuItem key={l.id} onSelect={() => set({ label: l.id })}>
              <Check on={search.label === l.id} /> <LabelChip name={l.name} color={l.color} />
            </MenuItem>
          ))
        )}
      </Menu>
      <Menu
        label="Priority"
        trigger={
          <FilterButton active={priorities.length > 0}>
            {priorities.length === 0
              ? 'Priority'
              : priorities.map((p) => PRIORITY_LABELS[p as keyof typeof PRIORITY_LABELS]).join(', ')}
          </FilterButton>
        }
      >
        <MenuItem onSelect={() => set({ priority: undefined })}>
          <Check on={priorities.length === 0} /> Any priority
        </MenuItem>
        {[...PRIORITIES].reverse().map((priority) => (
          <MenuItem key={priority} onSelect={() => set({ priority: toggled(priorities, priority) })}>
            <Check on={priorities.includes(priority)} /> <PriorityIcon priority={priority} />
            {PRIORITY_LABELS[priority]}
          </MenuItem>
        ))}
      </Menu>
      {isFiltered(search) && (
        <button type="button" className={styles.clear} onClick={() => onSearchChange(withoutFilters(search))}>
          Clear filters
        </button>
      )}
    </div>
  );
});

/** The priority list with `priority` added or taken out, in the API's order; undefined when empty. */
function toggled(priorities: readonly string[], priority: string): string | undefined {
  const next = priorities.includes(priority)
    ? priorities.filter((p) => p !== priority)
    : [...priorities, priority];
  return PRIORITIES.filter((p) => next.includes(p)).join(',') || undefined;
}

function describeAssignee(assignee: string | undefined, members: readonly BoardPerson[]): string | undefined {
  if (assignee === undefined) return undefined;
  if (assignee === 'me') return 'Assigned to me';
  if (assignee === 'none') return 'Unassigned';
  return members.find((m) => m.id === assignee)?.name ?? 'Someone';
}

const FilterButton = forwardRef<HTMLButtonElement, { active: boolean; children: ReactNode }>(
  function FilterButton({ active, children, ...radix }, ref) {
    return (
      <button ref={ref} type="button" className={styles.filter} data-active={active || undefined} {...radix}>
        {children}
        <svg viewBox="0 0 12 12" width="10" height="10" aria-hidden="true">
          <path d="M3 4.5l3 3 3-3" fill="none" stroke="currentColor" strokeWidth="1.4" />
        </svg>
      </button>
    );
  },
);

function Check({ on }: { on: boolean }) {
  return (
    <span className={styles.check} aria-hidden="true">
      {on ? '✓' : ''}
    </span>
  );
}

/** The text filter: typed at once, sent once typing pauses. `/` focuses it (the route's shortcut). */
const SearchField = forwardRef<
  HTMLInputElement,
  { value: string; onChange: (q: string | undefined) => void }
>(function SearchField({ value, onChange }, ref) {
  const [text, setText] = useState(value);
  const [shown, setShown] = useState(value);
  // The URL changed from elsewhere ("Clear filters", back): show its text, unless it is what was typed.
  if (value !== shown) {
    setShown(value);
    if (text.trim() !== value) setText(value);
  }
  useEffect(() => {
    if (text.trim() === value) return;
    const timer = setTimeout(() => onChange(text.trim() || undefined), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, value, onChange]);
  return (
    <input
      ref={ref}
      type="search"
      className={styles.search}
      placeholder="Search tasks  /"
      aria-label="Search tasks"
      maxLength={100}
      value={text}
      onChange={(event) => setText(event.target.value)}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && text) {
          event.stopPropagation();
          setText('');
        }
      }}
    />
  );
});
