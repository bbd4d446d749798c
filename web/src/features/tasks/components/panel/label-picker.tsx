import { LabelNameSchema } from '@api/labels/labels.schemas.ts';
import * as Popover from '@radix-ui/react-popover';
import { useState } from 'react';
import { toast } from 'sonner';
import { announce } from '../../../../components/ui/announce.ts';
import { describeError } from '../../../../lib/api/api-error.ts';
import { LABEL_COLORS } from '../../../../lib/labels/label-colors.ts';
import { LabelSwatches } from '../../../../lib/labels/label-swatches.tsx';
import { LabelChip } from '../task-meta/label-chip.tsx';
import type { Label } from './task-context.ts';
import styles from './panel.module.css';

interface LabelPickerProps {
  labels: readonly Label[];
  selected: readonly string[];
  canEdit: boolean;
  onChange: (labelIds: string[]) => void;
  createLabel: (label: { name: string; color: string }) => Promise<Label>;
}

/** The task's labels; the picker searches the workspace's labels and creates one from what was typed. */
export function LabelPicker({ labels, selected, canEdit, onChange, createLabel }: LabelPickerProps) {
  const chosen = selected
    .map((id) => labels.find((label) => label.id === id))
    .filter((label): label is Label => label !== undefined);
  const chips = chosen.length ? (
    <span className={styles.chips}>
      {chosen.map((label) => (
        <LabelChip key={label.id} name={label.name} color={label.color} />
      ))}
    </span>
  ) : (
    <span className={styles.propertyText}>No labels</span>
  );
  if (!canEdit) return chips;

  return (
    <Popover.Root>
      <Popover.Trigger
        className={styles.propertyButton}
        // Says what it shows, "No labels" too (WCAG 2.5.3, label in name).
        aria-label={`Labels: ${chosen.map((l) => l.name).join(', ') || 'No labels'}`}
      >
        {chips}
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className={styles.popover} align="start" sideOffset={4} aria-label="Labels">
          <LabelChooser labels={labels} selected={selected} onChange={onChange} createLabel={createLabel} />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

function LabelChooser({ labels, selected, onChange, createLabel }: Omit<LabelPickerProps, 'canEdit'>) {
  const [search, setSearch] = useState('');
  const [color, setColor] = useState<string>(LABEL_COLORS[6].value);
  const [creating, setCreating] = useState(false);
  const query = search.trim().toLowerCase();
  const shown = labels.filter((label) => label.name.toLowerCase().includes(query));
  const exists = labels.some((label) => label.name.toLowerCase() === query);
  const newName = LabelNameSchema.safeParse(search.trim());

  const toggle = (id: string) =>
    onChange(selected.includes(id) ? selected.filter((x) => x !== id) : [...selected, id]);

  const create = async () => {
    if (!newName.success) return;
    setCreating(true);
    try {
      const label = await createLabel({ name: newName.data, color });
      announce(`Label “${label.name}” created`);
      setSearch('');
      onChange([...selected, label.id]);
    } catch (error) {
      toast.error(describeError(error));
    } finally {
      setCreating(false);
    }
  };

  return (
    <div className={styles.chooser}>
      <input
        className={styles.searchInput}
        aria-label="Search or create a label"
        placeholder="Search or create…"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !exists && query) {
            event.preventDefault();
            void create();
          }
        }}
      />
      <ul className={styles.checkList}>
        {shown.map((label) => (
          <li key={label.id}>
            <label className={styles.checkRow}>
              <input
                type="checkbox"
                checked={selected.includes(label.id)}
                onChange={() => toggle(label.id)}
              />
              <LabelChip name={label.name} color={label.color} />
            </label>
          </li>
        ))}
        {shown.length === 0 && !query && <li className={styles.placeholder}>No labels yet: type a name.</li>}
      </ul>
      {query && !exists && (
        <div className={styles.createLabel}>
          <fieldset className={styles.newLabelColor}>
            <legend className={styles.hint}>Colour of the new label</legend>
            <LabelSwatches name="label-color" value={color} onChange={setColor} />
          </fieldset>
          <button
            type="button"
            className={styles.createButton}
            onClick={() => void create()}
            disabled={creating || !newName.success}
          >
            Create label “{search.trim()}”
          </button>
        </div>
      )}
    </div>
  );
}
