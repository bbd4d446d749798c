import { forwardRef, useEffect, useState, type ReactNode } from 'react';
import {
  Menu,
  MenuCheckboxItem,
  MenuItem,
  MenuLabel,
  MenuSeparator,
} from '../../../../components/ui/menu.tsx';
import { isFiltered, valuesOf, withoutFilters, type BoardSearch } from '../../board-search.ts';
import { LabelChip } from '../task-meta/label-chip.tsx';
import { PRIORITY_LABELS, PriorityIcon } from '../task-meta/priority.tsx';
import { TASK_PRIORITIES } from '@shared/vocabulary/spec-values.ts';
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
  const assignees = valuesOf(search.assignee);
  const chosenLabels = valuesOf(search.label);
  const priorities = valuesOf(search.priority);
  const assigneeOrder = ['me', 'none', ...members.map((member) => member.id)];
  const labelOrder = labels.map((l) => l.id);

  return (
    <div className={styles.bar} role="search" aria-label="Filter tasks">
      <SearchField
        ref={searchRef}
        value={search.q ?? ''}
        onChange={(q) => onSearchChange({ ...search, q }, { replace: true })}
      />
      <Menu
        label="Assignee"
        trigger={
          <FilterButton active={assignees.length > 0}>{describeAssignees(assignees, members)}</FilterButton>
        }
      >
        <MenuItem onSelect={() => set({ assignee: undefined })}>
          <Check on={assignees.length === 0} /> Anyone
        </MenuItem>
        <MenuSeparator />
        {[
          { id: 'me', name: 'Me' },
          { id: 'none', name: 'Unassigned' },
        ].map(({ id, name }) => (
          <MenuCheckboxItem
            key={id}
            checked={assignees.includes(id)}
            onCheckedChange={() => set({ assignee: toggled(assignees, id, assigneeOrder) })}
          >
            <Check on={assignees.includes(id)} /> {name}
          </MenuCheckboxItem>
        ))}
        {members.length > 0 && <MenuSeparator />}
        {members.map((member) => (
          <MenuCheckboxItem
            key={member.id}
            checked={assignees.includes(member.id)}
            onCheckedChange={() => set({ assignee: toggled(assignees, member.id, assigneeOrder) })}
          >
            <Check on={assignees.includes(member.id)} /> {member.name}
          </MenuCheckboxItem>
        ))}
      </Menu>
      <Menu
        label="Label"
        trigger={
          <FilterButton active={chosenLabels.length > 0}>{describeLabels(chosenLabels, labels)}</FilterButton>
        }
      >
        <MenuItem onSelect={() => set({ label: undefined })}>
          <Check on={chosenLabels.length === 0} /> Any label
        </MenuItem>
        {labels.length === 0 ? (
          <MenuLabel>The workspace has no labels yet</MenuLabel>
        ) : (
          labels.map((l) => (
            <MenuCheckboxItem
              key={l.id}
              checked={chosenLabels.includes(l.id)}
              onCheckedChange={() => set({ label: toggled(chosenLabels, l.id, labelOrder) })}
            >
              <Check on={chosenLabels.includes(l.id)} /> <LabelChip name={l.name} color={l.color} />
            </MenuCheckboxItem>
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
        {[...TASK_PRIORITIES].reverse().map((priority) => (
          <MenuCheckboxItem
            key={priority}
            checked={priorities.includes(priority)}
            onCheckedChange={() => set({ priority: toggled(priorities, priority, TASK_PRIORITIES) })}
          >
            <Check on={priorities.includes(priority)} /> <PriorityIcon priority={priority} />
            {PRIORITY_LABELS[priority]}
          </MenuCheckboxItem>
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

/**
 * The values with `value` added or taken out, in the menu's `order` (values it does not know, such as a
 * member who left, last); undefined when none is left.
 */
export function toggled(
  values: readonly string[],
  value: string,
  order: readonly string[],
): string | undefined {
  const next = values.includes(value) ? values.filter((v) => v !== value) : [...values, value];
  const known = order.filter((v) => next.includes(v));
  return [...known, ...next.filter((v) => !order.includes(v))].join(',') || undefined;
}

/** "Assignee", one assignee's name, two names ("Assignee: Maya, Lin"), or how many ("Assignees: 3"). */
function describeAssignees(assignees: readonly string[], members: readonly BoardPerson[]): string {
  const names = assignees.map((assignee) => nameOf(assignee, members));
  if (names.length === 0) return 'Assignee';
  if (assignees[0] === 'me' && names.length === 1) return 'Assigned to me';
  if (names.length === 1) return names[0] ?? 'Assignee';
  if (names.length === 2) return `Assignee: ${names.join(', ')}`;
  return `Assignees: ${names.length}`;
}

function nameOf(assignee: string, members: readonly BoardPerson[]): string {
  if (assignee === 'me') return 'Me';
  if (assignee === 'none') return 'Unassigned';
  return members.find((m) => m.id === assignee)?.name ?? 'Someone';
}

/** "Label", one label's name, or how many ("Labels: 2"). */
function describeLabels(chosen: readonly string[], labels: readonly BoardLabel[]): string {
  if (chosen.length === 0) return 'Label';
  if (chosen.length > 1) return `Labels: ${chosen.length}`;
  return labels.find((l) => l.id === chosen[0])?.name ?? 'Label: 1';
}

const FilterButton = forwardRef<HTMLButtonElement, { active: boolean; children: ReactNode }>(
  function FilterButton({ active, children, ...radix }, ref) {
    return (
      <button ref={ref} type="button" className={styles.filter} data-active={active || undefined} {...radix}>
        <span className={styles.filterText}>{children}</span>
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
