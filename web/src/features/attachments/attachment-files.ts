import {
  ATTACHMENT_MAX_BYTES,
  FileNameSchema,
  isAttachmentContentType,
} from '@api/attachments/attachments.schemas.ts';
import type { components } from '@api-spec/schema.d.ts';
import { fileType } from '../../lib/files/file-type.ts';
import { formatBytes } from '../../lib/files/format-bytes.ts';

type CreateAttachment = components['schemas']['CreateAttachment'];

export const ATTACHMENT_TYPES_IN_WORDS =
  'images (PNG, JPEG, GIF, WebP), PDF, text, Markdown, CSV, JSON or ZIP';

/** What the file input offers by default; the checks below decide, whatever the picker let through. */
export const ATTACHMENT_ACCEPT =
  'image/png,image/jpeg,image/gif,image/webp,application/pdf,text/plain,text/markdown,text/csv,application/json,application/zip,.md,.log,.csv,.json,.zip';

export type AttachmentCheck = { ok: true; body: CreateAttachment } | { ok: false; reason: string };

/**
 * The API's rules for a file (size, type, name), checked before anything is uploaded, so a refusal says
 * why at once instead of after 25 MB went up.
 */
export function checkAttachment(file: File): AttachmentCheck {
  const name = `“${file.name}”`;
  if (file.size > ATTACHMENT_MAX_BYTES) {
    return {
      ok: false,
      reason: `${name} is ${formatBytes(file.size)}: files can be at most ${formatBytes(ATTACHMENT_MAX_BYTES)}.`,
    };
  }
  if (file.size === 0) return { ok: false, reason: `${name} is empty.` };
  const type = fileType(file);
  if (!isAttachmentContentType(type)) {
    return { ok: false, reason: `${name} is not a type you can attach: ${ATTACHMENT_TYPES_IN_WORDS}.` };
  }
  const fileName = FileNameSchema.safeParse(file.name);
  if (!fileName.success) {
    return { ok: false, reason: `The file name ${fileName.error.issues[0]?.message ?? 'is not valid'}.` };
  }
  return { ok: true, body: { file_name: fileName.data, content_type: type, size_bytes: file.size } };
}

/** Images show themselves (thumbnail, lightbox); other files show their kind. */
export function isImage(contentType: string): boolean {
  return contentType.startsWith('image/');
}

/** How a file opens from its name: large in the lightbox, page by page in the PDF viewer, or not at all. */
export type PreviewKind = 'image' | 'pdf' | null;

export function previewKind(contentType: string): PreviewKind {
  if (isImage(contentType)) return 'image';
  return contentType === 'application/pdf' ? 'pdf' : null;
}
