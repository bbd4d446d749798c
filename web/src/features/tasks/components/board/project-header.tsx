import * as ToggleGroup from '@radix-ui/react-toggle-group';
import type { ReactNode } from 'react';
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

/** The project's name and key, and the Board/List toggle. */
export function ProjectHeader({ name, projectKey, view, onViewChange, aside }: ProjectHeaderProps) {
  return (
    <PageHeader>
      <h1 className={styles.title}>
        {name} <span className={styles.key}>{projectKey}</span>
      </h1>
      <div className={styles.end}>
        {aside}
        <ToggleGroup.Root
          type="single"
          className={styles.toggle}
          aria-label="View"
          value={view}
          onValueChange={(next) => {
            if (next === 'board' || next === 'list') onViewChange(next);
          }}
        >
          <ToggleGroup.Item value="board" className={styles.toggleItem}>
            Board
          </ToggleGroup.Item>
          <ToggleGroup.Item value="list" className={styles.toggleItem}>
            List
          </ToggleGroup.Item>
        </ToggleGroup.Root>
      </div>
    </PageHeader>
  );
}
