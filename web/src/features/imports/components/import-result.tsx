import { Link } from '@tanstack/react-router';
import { paths } from '../../../config/paths.ts';
import type { Import } from '../import-types.ts';
import { countOf } from '../import-wording.ts';
import styles from './imports.module.css';

/** "Imported 42 tasks into LP", "… into LP, OPS": the keys of the projects imported into. */
export function importSentence(done: Import): string {
  const keys = done.projects.map((project) => project.key).join(', ');
  return `Imported ${countOf(done.counts.tasks, 'task')} into ${keys || 'the workspace'}.`;
}

/** A finished import, with a link to each project's board. */
export function ImportResult({ slug, done }: { slug: string; done: Import }) {
  return (
    <div className={styles.result} role="status">
      <p>{importSentence(done)}</p>
      <ul className={styles.boards}>
        {done.projects.map((project) => (
          <li key={project.id}>
            <Link to={paths.board} params={{ slug, key: project.key }}>
              Open the {project.name} board
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
