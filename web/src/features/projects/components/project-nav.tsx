import type { components } from '@api-spec/schema.d.ts';
import { Link } from '@tanstack/react-router';
import { paths } from '../../../config/paths.ts';
import styles from './project-nav.module.css';

type Project = components['schemas']['Project'];

/** The header's links to the workspace's boards; the router marks the open one `aria-current="page"`. */
export function ProjectNav({ slug, projects }: { slug: string; projects: readonly Project[] }) {
  const active = projects.filter((project) => !project.archived);
  if (active.length === 0) return null;
  return (
    <nav className={styles.nav} aria-label="Projects">
      <ul className={styles.list}>
        {active.map((project) => (
          <li key={project.id}>
            <Link
              to={paths.board}
              params={{ slug, key: project.key }}
              className={styles.link}
              activeProps={{ className: styles.current }}
            >
              {project.name}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
