import type { components } from '@api-spec/schema.d.ts';
import { useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button.tsx';
import { LoadError } from '../../../components/ui/load-error.tsx';
import { PanelSection } from '../../../components/ui/panel-section.tsx';
import { LABEL_COLORS } from '../../../lib/labels/label-colors.ts';
import { useCreateLabel } from '../api/create-label.ts';
import { useLabels } from '../api/list-labels.ts';
import { DeleteLabelDialog } from './delete-label-dialog.tsx';
import { EditLabelDialog } from './edit-label-dialog.tsx';
import { LabelForm } from './label-form.tsx';
import styles from './labels.module.css';

type Label = components['schemas']['Label'];

interface LabelSettingsProps {
  slug: string;
  /** Owners, admins and members create labels. */
  canCreate: boolean;
  /** Owners and admins rename, recolor and delete them. */
  canManage: boolean;
  /** How many tasks use a label, as a sentence for the delete dialog (the route reads the count). */
  usage: (label: Label) => ReactNode;
}

/** The Labels tab: the workspace's labels, a form for a new one, and per label edit and delete. */
export function LabelSettings({ slug, canCreate, canManage, usage }: LabelSettingsProps) {
  const labels = useLabels(slug);
  const [editing, setEditing] = useState<Label | null>(null);
  const [deleting, setDeleting] = useState<Label | null>(null);

  return (
    <>
      {canCreate && <CreateLabel slug={slug} />}
      <PanelSection title="Labels">
        {labels.isPending ? (
          <LabelListSkeleton />
        ) : labels.error ? (
          <LoadError
            what="The labels"
            error={labels.error}
            onRetry={() => void labels.refetch()}
            retrying={labels.isFetching}
          />
        ) : labels.data.length === 0 ? (
          <p className="muted">
            {canCreate
              ? 'No labels yet. Create one above, then add it to tasks from their panel.'
              : 'No labels yet. Members and admins can create them.'}
          </p>
        ) : (
          <ul className={styles.list}>
            {labels.data.map((label) => (
              <li key={label.id} className={styles.row}>
                <span className={styles.dot} style={{ background: label.color }} aria-hidden="true" />
                <span className={styles.name}>{label.name}</span>
                <code className={styles.color}>{label.color}</code>
                {canManage && (
                  <span className={styles.actions}>
                    <Button onClick={() => setEditing(label)} aria-label={`Edit ${label.name}`}>
                      Edit
                    </Button>
                    <Button onClick={() => setDeleting(label)} aria-label={`Delete ${label.name}`}>
                      Delete
                    </Button>
                  </span>
                )}
              </li>
            ))}
          </ul>
        )}
        {!canManage && labels.data && labels.data.length > 0 && (
          <p className="muted">Only owners and admins rename, recolor and delete labels.</p>
        )}
      </PanelSection>
      <EditLabelDialog slug={slug} label={editing} onClose={() => setEditing(null)} />
      <DeleteLabelDialog
        slug={slug}
        label={deleting}
        usage={deleting ? usage(deleting) : null}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}

function CreateLabel({ slug }: { slug: string }) {
  const create = useCreateLabel(slug);
  // A new form after each label created, so its fields start empty again.
  const [formKey, setFormKey] = useState(0);
  return (
    <PanelSection title="New label">
      <LabelForm
        key={formKey}
        inline
        initial={{ name: '', color: LABEL_COLORS[6].value }}
        submitLabel="Create label"
        pendingLabel="Creating…"
        pending={create.isPending}
        error={create.error}
        onEdit={() => create.reset()}
        onSubmit={(body) =>
          create.mutate(body, {
            onSuccess: (label) => {
              toast.success(`Label ${label.name} created.`);
              setFormKey((key) => key + 1);
            },
          })
        }
      />
    </PanelSection>
  );
}

function LabelListSkeleton() {
  return (
    <ul className={styles.list} aria-busy="true" aria-label="Loading labels">
      {[0, 1, 2].map((row) => (
        <li key={row} className={styles.row}>
          <span className={styles.skeleton} />
        </li>
      ))}
    </ul>
  );
}
