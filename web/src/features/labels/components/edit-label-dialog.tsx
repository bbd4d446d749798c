import type { components } from '@api-spec/schema.d.ts';
import { toast } from 'sonner';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { useUpdateLabel } from '../api/update-label.ts';
import { LabelForm } from './label-form.tsx';

type Label = components['schemas']['Label'];

interface EditLabelDialogProps {
  slug: string;
  /** The label being edited; `null` closes the dialog. */
  label: Label | null;
  onClose: () => void;
}

/** Rename or recolor a label; every task that has it shows the change. */
export function EditLabelDialog({ slug, label, onClose }: EditLabelDialogProps) {
  const update = useUpdateLabel(slug);
  return (
    <Dialog
      open={label !== null}
      onOpenChange={(open) => {
        if (!open) {
          update.reset();
          onClose();
        }
      }}
      title="Edit label"
      description="Every task that has this label shows the new name and colour."
    >
      {label && (
        <LabelForm
          key={label.id}
          initial={{ name: label.name, color: label.color }}
          submitLabel="Save"
          pendingLabel="Saving…"
          pending={update.isPending}
          error={update.error}
          onEdit={() => update.reset()}
          onSubmit={(values) => {
            const patch = {
              ...(values.name !== label.name ? { name: values.name } : {}),
              ...(values.color !== label.color ? { color: values.color } : {}),
            };
            update.mutate(
              { label, patch },
              {
                onSuccess: (saved) => {
                  toast.success(`Label ${saved.name} saved.`);
                  update.reset();
                  onClose();
                },
              },
            );
          }}
        />
      )}
    </Dialog>
  );
}
