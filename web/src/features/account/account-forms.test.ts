import { describe, expect, it } from 'vitest';
import { validateProfile } from './account-forms.ts';

describe('validateProfile', () => {
  it('trims the display name, as PATCH /v1/me does', () => {
    expect(validateProfile({ display_name: '  Ada Lovelace ' })).toEqual({
      ok: true,
      data: { display_name: 'Ada Lovelace' },
    });
  });

  it('refuses an empty or overlong name with a sentence for the field', () => {
    expect(validateProfile({ display_name: '   ' })).toEqual({
      ok: false,
      errors: { display_name: 'Display name must not be empty.' },
    });
    expect(validateProfile({ display_name: 'x'.repeat(81) })).toEqual({
      ok: false,
      errors: { display_name: 'Display name must be at most 80 characters.' },
    });
  });
});
