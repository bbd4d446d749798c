/** What an endpoint answers; the service turns it into the HTTP response. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export const ok = (body: unknown, headers: Record<string, string> = {}): Reply => ({
  status: 200,
  body,
  headers,
});
export const noContent = (): Reply => ({ status: 204 });
