import type { components } from '@api-spec/schema.d.ts';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { paths } from '../../../config/paths.ts';
import styles from './projects.module.css';

type Project = components['schemas']['Project'];

/** A project's task counts: not done or canceled, and all. */
export interface ProjectCounts {
  open: number;
  total: number;
}

interface ProjectListProps {
  slug: string;
  /** Every project, archived ones too: they show behind the toggle. */
  projects: readonly Project[];
  /** Counts by project key; undefined while they load or when they could not be read. */
  counts: ReadonlyMap<string, ProjectCounts> | undefined;
  /** Owners and admins may create projects; only they are offered to. */
  canCreate: boolean;
  onCreate: () => void;
}

/** The workspace's projects as cards that open their boards, with archived ones behind a toggle. */
export function ProjectList({ slug, projects, counts, canCreate, onCreate }: ProjectListProps) {
  const [showArchived, setShowArchived] = useState(false);
  const active = projects.filter((project) => !project.archived);
  const archived = projects.filter((project) => project.archived);

  return (
    <>
      {active.length === 0 ? (
        <div className={styles.empty}>
          <p className={styles.emptyTitle}>No projects yet</p>
          <p className="muted">
            {canCreate
              ? 'Create your first project: a board for a team or a product, where its tasks live.'
              : 'An owner or admin of this workspace can create the first project.'}
          </p>
          {canCreate && (
            <Button variant="primary" onClick={onCreate}>
              Create your first project
            </Button>
          )}
        </div>
      ) : (
        <ProjectGrid slug={slug} projects={active} counts={counts} />
      )}
      {archived.length > 0 && (
        <div className={styles.archived}>
          <Button aria-expanded={showArchived} onClick={() => setShowArchived((shown) => !shown)}>
            {showArchived ? 'Hide' : 'Show'} archived projects ({archived.length})
          </Button>
          {showArchived && <ProjectGrid slug={slug} projects={archived} counts={counts} />}
        </div>
      )}
    </>
  );
}

function ProjectGrid({ slug, projects, counts }: Omit<ProjectListProps, 'canCreate' | 'onCreate'>) {
  return (
    <ul className={styles.grid}>
      {projects.map((project) => {
        const count = counts?.get(project.key);
        return (
          <li key={project.id}>
            <Link to={paths.board} params={{ slug, key: project.key }} className={styles.card}>
              <span className={styles.cardTop}>
                <span className={styles.key}>{project.key}</span>
                {project.archived && <span className={styles.badge}>Archived</span>}
              </span>
              <span className={styles.name}>{project.name}</span>
              {project.description && <span className={styles.description}>{project.description}</span>}
              <span className={styles.counts}>
                {count ? `${count.open} open · ${count.total} total` : '\u00a0'}
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/** Stand-ins for the cards while the projects load. */
export function ProjectListSkeleton() {
  return (
    <ul className={styles.grid} aria-hidden="true">
      {[0, 1, 2].map((index) => (
        <li key={index} className={styles.skeletonCard} />
      ))}
    </ul>
  );
}
