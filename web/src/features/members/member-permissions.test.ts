import { describe, expect, it } from 'vitest';
import { assignableRoles, isLastOwner, mayRemove } from './member-permissions.ts';

describe('assignableRoles', () => {
  it('lets owners give any role to anyone', () => {
    expect(assignableRoles('owner', 'owner')).toEqual(['owner', 'admin', 'member', 'viewer']);
    expect(assignableRoles('owner', 'viewer')).toEqual(['owner', 'admin', 'member', 'viewer']);
  });

  it('lets admins give admin, member or viewer to anyone but an owner', () => {
    expect(assignableRoles('admin', 'member')).toEqual(['admin', 'member', 'viewer']);
    expect(assignableRoles('admin', 'admin')).toEqual(['admin', 'member', 'viewer']);
    expect(assignableRoles('admin', 'owner')).toEqual([]);
  });

  it('lets members and viewers change nobody', () => {
    expect(assignableRoles('member', 'viewer')).toEqual([]);
    expect(assignableRoles('viewer', 'viewer')).toEqual([]);
  });
});

describe('mayRemove', () => {
  it('lets anyone leave', () => {
    expect(mayRemove('viewer', 'viewer', true)).toBe(true);
  });

  it('lets owners remove anyone and admins anyone but owners', () => {
    expect(mayRemove('owner', 'owner', false)).toBe(true);
    expect(mayRemove('admin', 'member', false)).toBe(true);
    expect(mayRemove('admin', 'owner', false)).toBe(false);
    expect(mayRemove('member', 'viewer', false)).toBe(false);
  });
});

describe('isLastOwner', () => {
  it('is true only for the one owner', () => {
    const owner = { role: 'owner' as const };
    expect(isLastOwner([owner, { role: 'member' }], owner)).toBe(true);
    expect(isLastOwner([owner, { role: 'owner' }], owner)).toBe(false);
    expect(isLastOwner([owner, { role: 'member' }], { role: 'member' })).toBe(false);
  });
});
