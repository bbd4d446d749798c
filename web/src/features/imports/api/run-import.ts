import { useMutation } from '@tanstack/react-query';
import type { ImportRequest } from '../import-types.ts';
import { runImport } from './send-import.ts';

/** The import itself, all or nothing; nothing is cached (the screen refreshes what it shows). */
export function useRunImport(slug: string) {
  return useMutation({ mutationFn: (request: ImportRequest) => runImport(slug, request) });
}
