import type { components } from '@api-spec/schema.d.ts';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button.tsx';
import { LoadError } from '../../../components/ui/load-error.tsx';
import { PanelSection } from '../../../components/ui/panel-section.tsx';
import { describeError } from '../../../lib/api/api-error.ts';
import { useProjects } from '../api/list-projects.ts';
import { useUpdateProject } from '../api/update-project.ts';
import { DeleteProjectDialog } from './delete-project-dialog.tsx';
import { EditProjectDialog } from './edit-project-dialog.tsx';
import styles from './project-settings.module.css';

type Project = components['schemas']['Project'];

interface ProjectSettingsProps {
  slug: string;
  /** Owners and admins change, archive and delete projects. */
  canManage: boolean;
  onCreate: () => void;
}

/** The Projects tab: every project, archived ones too, with rename, key, archive and delete. */
export function ProjectSettings({ slug, canManage, onCreate }: ProjectSettingsProps) {
  const projects = useProjects(slug);
  const archive = useUpdateProject(slug);
  const [editing, setEditing] = useState<Project | null>(null);
  const [deleting, setDeleting] = useState<Project | null>(null);

  function setArchived(project: Project, archived: boolean) {
    archive.mutate(
      { project, patch: { archived } },
      {
        onSuccess: (saved) =>
          toast.success(archived ? `Project ${saved.key} archived.` : `Project ${saved.key} unarchived.`),
        onError: (error) => toast.error(describeError(error)),
      },
    );
  }

  return (
    <PanelSection title="Projects">
      {projects.isPending ? (
        <p className="muted" aria-busy="true">
          Loading projects…
        </p>
      ) : projects.error ? (
        <LoadError
          what="The projects"
          error={projects.error}
          onRetry={() => void projects.refetch()}
          retrying={projects.isFetching}
        />
      ) : projects.data.length === 0 ? (
        <div className={styles.empty}>
          <p className="muted">
            {canManage
              ? 'No projects yet. Create one: a board for a team or a product.'
              : 'No projects yet. Owners and admins create them.'}
          </p>
          {canManage && (
            <Button variant="primary" onClick={onCreate}>
              New project
            </Button>
          )}
        </div>
      ) : (
        <>
          <ul className={styles.list}>
            {projects.data.map((project) => (
              <li key={project.id} className={styles.row}>
                <code className={styles.key}>{project.key}</code>
                <span className={styles.name}>{project.name}</span>
                {project.archived && <span className={styles.badge}>Archived</span>}
                {canManage && (
                  <span className={styles.actions}>
                    {!project.archived && (
                      <Button onClick={() => setEditing(project)} aria-label={`Edit ${project.key}`}>
                        Edit
                      </Button>
                    )}
                    <Button
                      onClick={() => setArchived(project, !project.archived)}
                      disabled={archive.isPending && archive.variables.project.id === project.id}
                      aria-label={`${project.archived ? 'Unarchive' : 'Archive'} ${project.key}`}
                    >
                      {project.archived ? 'Unarchive' : 'Archive'}
                    </Button>
                    <Button onClick={() => setDeleting(project)} aria-label={`Delete ${project.key}`}>
                      Delete
                    </Button>
                  </span>
                )}
              </li>
            ))}
          </ul>
          {canManage ? (
            <div className={styles.footer}>
              <p className="muted">An archived project is read-only; unarchive it to change it.</p>
              <Button onClick={onCreate}>New project</Button>
            </div>
          ) : (
            <p className="muted">Only owners and admins change, archive and delete projects.</p>
          )}
        </>
      )}
      <EditProjectDialog slug={slug} project={editing} onClose={() => setEditing(null)} />
      <DeleteProjectDialog slug={slug} project={deleting} onClose={() => setDeleting(null)} />
    </PanelSection>
  );
}
