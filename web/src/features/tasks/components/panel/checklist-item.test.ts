import { describe, expect, it } from 'vitest';
import { withItemTicked } from './checklist-item.ts';

describe('withItemTicked', () => {
  const description = 'Steps:\n\n- [ ] write\n- [x] review\n  1. [ ] nested\n';

  it('ticks and unticks the item that starts at the offset, and nothing else', () => {
    const write = description.indexOf('- [ ] write');
    expect(withItemTicked(description, write, true)).toBe(
      'Steps:\n\n- [x] write\n- [x] review\n  1. [ ] nested\n',
    );
    const review = description.indexOf('- [x] review');
    expect(withItemTicked(description, review, false)).toBe(
      'Steps:\n\n- [ ] write\n- [ ] review\n  1. [ ] nested\n',
    );
  });

  it('finds an indented item from where its marker starts', () => {
    const nested = description.indexOf('1. [ ] nested');
    expect(withItemTicked(description, nested, true)).toBe(
      'Steps:\n\n- [ ] write\n- [x] review\n  1. [x] nested\n',
    );
  });

  it('answers null when no item starts there', () => {
    expect(withItemTicked(description, 0, true)).toBeNull();
    expect(withItemTicked('- plain item', 0, true)).toBeNull();
  });
});
