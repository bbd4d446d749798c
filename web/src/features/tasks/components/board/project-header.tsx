import { useId, type ReactNode } from 'react';
import { PageHeader } from '../../../../components/ui/page-header.tsx';
import styles from './project-header.module.css';

export type BoardView = 'board' | 'list';

interface ProjectHeaderProps {
  name: string;
  projectKey: string;
  view: BoardView;
  onViewChange: (view: BoardView) => void;
  /** Shown before the toggle: who else is on the board, the connection's state. */
  aside?: ReactNode;
}

const VIEWS: readonly (readonly [BoardView, string])[] = [
  ['board', 'Board'],
  ['list', 'List'],
];

/**
 * The project's name and key, and the Board/List switch: two native radios (arrow keys move between them),
 * not a Radix toggle group, whose roving focus would add 7 KiB to the board's first load (decision 0029).
 */
export function ProjectHeader({ name, projectKey, view, onViewChange, aside }: ProjectHeaderProps) {
  const group = useId();
  return (
    <PageHeader>
      <h1 className={styles.title}>
        {name} <span className={styles.key}>{projectKey}</span>
      </h1>
      <div className={styles.end}>
        {aside}
        <div role="radiogroup" aria-label="View" className={styles.toggle}>
          {VIEWS.map(([value, label]) => (
            <label key={value} className={styles.toggleItem} data-state={view === value ? 'on' : 'off'}>
              <input
                type="radio"
                name={group}
                value={value}
                checked={view === value}
                onChange={() => onViewChange(value)}
              />
              {label}
            </label>
          ))}
        </div>
      </div>
    </PageHeader>
  );
}
