import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Markdown } from './markdown.tsx';

describe('Markdown', () => {
  it('renders headings and links, and links open in a new tab without a handle on this one', () => {
    render(<Markdown>{'# Release plan\n\nSee [the notes](https://example.com/notes).'}</Markdown>);

    expect(screen.getByRole('heading', { name: 'Release plan', level: 1 })).toBeTruthy();
    const link = screen.getByRole('link', { name: 'the notes' });
    expect(link.getAttribute('href')).toBe('https://example.com/notes');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('shows raw HTML as text: no element is made from it, no handler attached', () => {
    const { container } = render(
      <Markdown>
        {'Before\n\n<img src="x" onerror="alert(1)">\n\nand <b onclick="alert(2)">bold</b>'}
      </Markdown>,
    );

    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    expect(container.querySelector('[onerror], [onclick]')).toBeNull();
    expect(container.textContent).toContain('<img src="x" onerror="alert(1)">');
    expect(container.textContent).toContain('<b onclick="alert(2)">');
  });

  it('drops javascript: links', () => {
    render(<Markdown>{'[click me](javascript:alert(1))'}</Markdown>);

    expect(screen.getByText('click me').getAttribute('href') ?? '').not.toMatch(/javascript/i);
  });

  it('shows an image from another origin as a link to it, never loading it', () => {
    const { container } = render(
      <Markdown>
        {'![build status](https://tracker.example/pixel.png?who=me) and ![](http://x.test/a.gif)'}
      </Markdown>,
    );

    expect(container.querySelector('img')).toBeNull();
    const link = screen.getByRole('link', { name: 'build status' });
    expect(link.getAttribute('href')).toBe('https://tracker.example/pixel.png?who=me');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(screen.getByRole('link', { name: 'http://x.test/a.gif' })).toBeTruthy();
  });

  it("shows an image of the app's own origin as an image", () => {
    const { container } = render(<Markdown>{'![logo](/favicon.svg)'}</Markdown>);

    const image = container.querySelector('img');
    expect(image?.getAttribute('src')).toBe('/favicon.svg');
    expect(image?.getAttribute('alt')).toBe('logo');
  });
});
