import { useMutation } from '@tanstack/react-query';
import type { ImportRequest } from '../import-types.ts';
import { previewImport } from './send-import.ts';

/** A dry run of the import: what it would create, with its mapping and problems; nothing is written. */
export function usePreviewImport(slug: string) {
  return useMutation({ mutationFn: (request: ImportRequest) => previewImport(slug, request) });
}
