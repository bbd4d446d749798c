import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api-app.ts';
import { openApi } from '../support/openapi.ts';
import { callApi, problemOf } from '../support/api-request.ts';

const api = useTestApp();

describe('GET /api/v1/meta/limits', () => {
  it('answers the limits of docs/product.md#limits', async () => {
    const response = await callApi(api.app, '/api/v1/meta/limits');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      object: 'limits',
      workspaces_per_user: 10,
      members_per_workspace: 50,
      tasks_per_project: 20_000,
      attachment_max_bytes: 25 * 1024 * 1024,
      workspace_storage_bytes: 1024 * 1024 * 1024,
      pending_uploads_per_user: 20,
      api_token_lifetime_days: { min: 1, max: 365, default: 90 },
      rate_limit_per_minute: { user: 600, ip: 60 },
      sensitive_creations_per_hour: 20,
      invitations_per_recipient_per_day: 5,
      exports_per_workspace_per_hour: 10,
      page_size: { default: 50, max: 200 },
      json_body_max_bytes: 1024 * 1024,
      signed_download_url_lifetime_seconds: 300,
    });
  });

  it('answers exactly what the spec shows as its example', async () => {
    const example = openApi.paths['/v1/meta/limits']?.get?.responses['200']?.content?.['application/json'];
    const response = await callApi(api.app, '/api/v1/meta/limits');
    expect(example?.example).toBeDefined();
    expect(response.body).toEqual(example?.example);
  });

  it('answers HEAD with the headers and no body', async () => {
    const response = await callApi(api.app, '/api/v1/meta/limits', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.text).toBe('');
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it('rejects a query parameter it does not define', async () => {
    const response = await callApi(api.app, '/api/v1/meta/limits?limit=5');
    expect(response.status).toBe(400);
    expect(problemOf(response).errors).toEqual([
      { path: 'query.limit', code: 'unknown_field', message: 'Unknown field "limit".' },
    ]);
  });
});
