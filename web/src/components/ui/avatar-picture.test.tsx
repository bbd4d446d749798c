import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Avatar } from './avatar.tsx';

const ID = '7d0f1f8e-2f5a-4c3e-9d61-2b1f0c1d7a10';

describe('Avatar', () => {
  it('shows the picture when there is one, named by the person', () => {
    const { container } = render(<Avatar name="Maya Lopez" id={ID} src="https://storage.test/maya.png" />);
    expect(screen.getByRole('img', { name: 'Maya Lopez' })).toBeTruthy();
    expect(container.querySelector('img')?.getAttribute('src')).toBe('https://storage.test/maya.png');
    expect(container.textContent).toBe('');
  });

  it('shows the initials without a picture, and when the picture fails to load', () => {
    const { container, rerender } = render(<Avatar name="Maya Lopez" id={ID} src={null} />);
    expect(container.textContent).toBe('ML');

    rerender(<Avatar name="Maya Lopez" id={ID} src="https://storage.test/expired.png" />);
    const picture = container.querySelector('img');
    if (!picture) throw new Error('no picture');
    fireEvent.error(picture);
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent).toBe('ML');

    // A new address (a fresh signed URL) is tried again.
    rerender(<Avatar name="Maya Lopez" id={ID} src="https://storage.test/fresh.png" />);
    expect(container.querySelector('img')?.getAttribute('src')).toBe('https://storage.test/fresh.png');
  });
});
