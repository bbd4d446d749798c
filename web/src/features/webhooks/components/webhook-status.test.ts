import type { components } from '@api-spec/schema.d.ts';
import { describe, expect, it } from 'vitest';
import { webhookStatus } from './webhook-status.ts';

type Webhook = components['schemas']['Webhook'];

const base: Webhook = {
  object: 'webhook',
  id: '7c3e2a10-8b7d-4f6e-9a01-3d2c1b0a9f8e',
  workspace_id: '0b7e2a10-8b7d-4f6e-9a01-3d2c1b0a9f8e',
  url: 'https://hooks.example.com/tasklane',
  events: ['*'],
  active: true,
  disabled_reason: null,
  created_by: null,
  version: 1,
  created_at: '2026-11-22T09:10:00.000Z',
  updated_at: '2026-11-22T09:10:00.000Z',
};

describe('webhookStatus', () => {
  it('says whether a webhook is on, switched off, or switched off by Tasklane and why', () => {
    expect(webhookStatus(base).label).toBe('Active');
    expect(webhookStatus({ ...base, active: false }).label).toBe('Off');
    expect(webhookStatus({ ...base, active: false, disabled_reason: 'failing' }).label).toBe(
      'Off: failing for 3 days',
    );
    expect(webhookStatus({ ...base, active: false, disabled_reason: 'gone' }).label).toBe(
      'Off: the receiver answered 410 Gone',
    );
  });
});
