import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api-app.ts';
import { apiClient, bearer, createApiClient, responseOf, type ApiClient } from '../support/api-client.ts';
import { expectProblem } from '../support/api-request.ts';

const api = useTestApp();

const answering = (status: number, body: unknown) =>
  createApiClient(() =>
    Promise.resolve(
      new Response(JSON.stringify(body), {
        status,
        headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'r1' },
      }),
    ),
  );

describe('the typed API client', () => {
  it('calls the app in-process and types the answer by the contract', async () => {
    const response = await responseOf(apiClient(api.app).GET('/v1/health'));
    expect(response.status).toBe(200);
    const status: 'ok' = response.body.status;
    expect(status).toBe('ok');
    expect(JSON.parse(response.text)).toEqual(response.body);
  });

  it('keeps an error answer readable as a problem', async () => {
    const response = await responseOf(
      apiClient(api.app).GET('/v1/workspaces/{slug}', {
        params: { path: { slug: 'nowhere' } },
        headers: bearer('not-a-token'),
      }),
    );
    expectProblem(response, 401, 'unauthenticated');
  });

  it('rejects an answer whose body breaks the spec', async () => {
    await expect(answering(200, { status: 'fine', database: 'ok' }).GET('/v1/health')).rejects.toThrow(
      /GET \/api\/v1\/health → 200 does not match openapi\.yaml:[^]*- body \/status must be equal to one of the allowed values/,
    );
  });

  it('rejects a status the spec does not document for the operation', async () => {
    await expect(answering(418, { status: 'ok', database: 'ok' }).GET('/v1/health')).rejects.toThrow(
      /status 418 is not documented for getHealth/,
    );
  });
});

// Never run: `tsc` (npm run check) fails if the contract stops rejecting these.
export function contractRejects(client: ApiClient): void {
  void client.POST('/v1/workspaces/{slug}/projects/{key}/tasks', {
    params: { path: { slug: 'acme', key: 'WEB' } },
    // @ts-expect-error: `titel` is no field of CreateTask, and `title` is required.
    body: { titel: 'Typo' },
  });
  void responseOf(client.GET('/v1/health')).then((response) => {
    // @ts-expect-error: Health has no field `version`.
    return response.body.version;
  });
}
