import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { exportFilename, readExport, type ExportFile, type ExportProgress } from '../read-export.ts';

/** GET /v1/workspaces/{slug}/export, read as a stream so its progress shows; nothing is cached. */
export async function exportWorkspace(
  slug: string,
  onProgress: (progress: ExportProgress) => void,
): Promise<ExportFile> {
  const pending = api.GET('/v1/workspaces/{slug}/export', {
    params: { path: { slug } },
    parseAs: 'stream',
  });
  const body = await unwrap(pending);
  const { response } = await pending;
  if (!body) throw new TypeError('The export answer had no body.');
  const length = Number(response.headers.get('Content-Length'));
  const file = await readExport(body, length > 0 ? length : null, onProgress);
  return { ...file, filename: exportFilename(response.headers.get('Content-Disposition'), slug) };
}

/** The export as a mutation (it spends the workspace's hourly budget), with its progress. */
export function useExportWorkspace(slug: string) {
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const mutation = useMutation({
    mutationFn: () => {
      setProgress({ received: 0, total: null });
      return exportWorkspace(slug, setProgress);
    },
  });
  return { ...mutation, progress };
}
