import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CopyField } from './copy-field.tsx';

describe('CopyField', () => {
  it('puts the value on the clipboard and says so', async () => {
    const user = userEvent.setup();
    render(<CopyField label="Secret key" value="JBSWY3DPEHPK3PXP" />);

    await user.click(screen.getByRole('button', { name: 'Copy' }));

    expect(await navigator.clipboard.readText()).toBe('JBSWY3DPEHPK3PXP');
    expect(screen.getByRole('button', { name: 'Copied' })).toBeTruthy();
  });

  it('selects the value for copying by hand when the clipboard refuses', async () => {
    // userEvent.setup() gives each test a fresh clipboard stub, so this refusal ends with the test.
    const user = userEvent.setup();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(
      new DOMException('Denied', 'NotAllowedError'),
    );
    render(<CopyField label="Secret key" value="JBSWY3DPEHPK3PXP" />);
    const input = screen.getByLabelText<HTMLInputElement>('Secret key');

    await user.click(screen.getByRole('button', { name: 'Copy' }));

    expect(await screen.findByText(/press Ctrl\+C/)).toBeTruthy();
    expect(input.value.slice(input.selectionStart ?? 0, input.selectionEnd ?? 0)).toBe('JBSWY3DPEHPK3PXP');
    expect(screen.getByRole('button', { name: 'Copy' })).toBeTruthy();
  });
});
