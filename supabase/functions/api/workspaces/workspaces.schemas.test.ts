import { describe, expect, it } from 'vitest';
import { CreateWorkspaceBodySchema, suggestSlug, WorkspaceSlugSchema } from './workspaces.schemas.ts';

describe('workspace rules', () => {
  it.each(['acme', 'acme-labs', 'a1b', 'x'.repeat(40)])('accepts the slug %s', (slug) => {
    expect(WorkspaceSlugSchema.safeParse(slug).success).toBe(true);
  });

  it.each([
    ['ab', 'at least 3'],
    ['x'.repeat(41), 'at most 40'],
    ['-acme', 'single hyphens'],
    ['acme-', 'single hyphens'],
    ['ac--me', 'single hyphens'],
    ['Acme', 'single hyphens'],
    ['acmé', 'single hyphens'],
    ['sign-in', 'reserved'],
    ['admin', 'reserved'],
  ])('refuses the slug %s', (slug, message) => {
    const result = WorkspaceSlugSchema.safeParse(slug);
    expect(result.error?.issues[0]?.message).toContain(message);
  });

  it('trims the name and refuses unknown fields', () => {
    expect(CreateWorkspaceBodySchema.parse({ name: '  Acme  ', slug: 'acme' })).toEqual({
      name: 'Acme',
      slug: 'acme',
    });
    expect(
      CreateWorkspaceBodySchema.safeParse({ name: ' ', slug: 'acme', owner: 'me' }).error?.issues,
    ).toHaveLength(2);
  });

  it('suggests a slug from a name', () => {
    expect(suggestSlug('  Café Crème — Paris! ')).toBe('cafe-creme-paris');
    expect(suggestSlug('x'.repeat(39) + ' y')).toBe('x'.repeat(39));
  });
});
