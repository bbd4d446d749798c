import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { toast } from './toast.ts';
import { LazyToaster } from './toaster.tsx';

describe('the lazily loaded toaster', () => {
  it('shows a toast raised before sonner has loaded', async () => {
    render(<LazyToaster />);
    expect(screen.queryByText('Created WEB-12')).toBeNull();

    toast.success('Created WEB-12');

    expect(await screen.findByText('Created WEB-12')).toBeTruthy();
  });
});
