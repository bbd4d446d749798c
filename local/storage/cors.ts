import type { ServerResponse } from 'node:http';

/**
 * CORS at the gateway, as for Storage on hosted and Kong's cors plugin locally: any origin (a browser PUTs
 * to signed upload URLs and GETs signed downloads from the web app's origin), and the response headers a
 * download's reader may want beyond the safelisted ones.
 */
export function addStorageCorsHeaders(res: ServerResponse): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader(
    'Access-Control-Expose-Headers',
    'Content-Length, Content-Range, Content-Disposition, ETag, Last-Modified, Cache-Control, Accept-Ranges',
  );
}
