import { describe, expect, it } from 'vitest';
import { homeWorkspaceSlug } from './home-workspace.ts';

const mine = [{ slug: 'acme' }, { slug: 'globex' }];

describe('homeWorkspaceSlug', () => {
  it('goes back to the workspace used last while the person is still a member', () => {
    expect(homeWorkspaceSlug(mine, 'globex')).toBe('globex');
  });

  it('goes to the first workspace when the last one is gone or was never remembered', () => {
    expect(homeWorkspaceSlug(mine, 'initech')).toBe('acme');
    expect(homeWorkspaceSlug(mine, null)).toBe('acme');
  });

  it('has nowhere to go without a workspace', () => {
    expect(homeWorkspaceSlug([], 'acme')).toBeNull();
  });
});
