import { describe, expect, it } from 'vitest';
import { searchValidator } from '../../lib/routing/route-params.ts';
import { boardSearchSchema, filtersHide, filtersOf, isFiltered, withoutFilters } from './board-search.ts';

const validate = searchValidator(boardSearchSchema);
const member = '7d0f1f8e-2f5a-4c3e-9d61-2b1f0c1d7a10';
const label = '4d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09';

describe('the board URL query', () => {
  it('keeps every valid filter, the view and the sort', () => {
    const search = validate({
      assignee: member,
      label,
      priority: 'high,urgent',
      q: 'billing',
      view: 'list',
      sort: '-priority',
    });
    expect(search).toEqual({
      assignee: member,
      label,
      priority: 'high,urgent',
      q: 'billing',
      view: 'list',
      sort: '-priority',
    });
    expect(filtersOf(search)).toEqual({ assignee: member, label, priority: 'high,urgent', q: 'billing' });
  });

  it('takes me and none as assignees', () => {
    expect(validate({ assignee: 'me' }).assignee).toBe('me');
    expect(validate({ assignee: 'none' }).assignee).toBe('none');
  });

  it('takes several assignees and labels, comma-separated, up to 20 of each', () => {
    const other = '0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b';
    const both = validate({ assignee: `me,none,${member}`, label: `${label},${other}` });
    expect(both).toEqual({ assignee: `me,none,${member}`, label: `${label},${other}` });
    const many = Array.from(
      { length: 21 },
      (_, index) => `${String(index).padStart(8, '0')}${member.slice(8)}`,
    );
    expect(validate({ label: many.slice(0, 20).join(','), assignee: many.join(',') })).toEqual({
      label: many.slice(0, 20).join(','),
    });
    expect(validate({ assignee: 'me,maya', label: `${label},` })).toEqual({});
  });

  it('drops only the values the API would refuse, keeping the rest of the link', () => {
    const search = validate({
      assignee: 'maya',
      label: 'design',
      priority: 'high,whatever',
      view: 'grid',
      q: 'ok',
    });
    expect(search).toEqual({ q: 'ok' });
  });

  it('refuses a search longer than the API takes, and reads a number typed in the URL as text', () => {
    expect(validate({ q: 'x'.repeat(101) }).q).toBeUndefined();
    expect(validate({ q: 42 }).q).toBe('42');
  });

  it('says whether the board is filtered, and clears the filters but not the view', () => {
    expect(isFiltered(validate({ view: 'list', sort: 'priority' }))).toBe(false);
    const filtered = validate({ view: 'list', label });
    expect(isFiltered(filtered)).toBe(true);
    expect(withoutFilters(filtered)).toEqual({ view: 'list', sort: undefined });
  });
});

describe('filtersHide', () => {
  const created = {
    title: 'Renew the Domain',
    description: '',
    priority: 'none',
    assignee_id: null,
    label_ids: [],
  };

  it('says a task created from its title alone is out of a board filtered on anything it lacks', () => {
    expect(filtersHide({}, created)).toBe(false);
    expect(filtersHide({ view: 'list', sort: '-priority' }, created)).toBe(false);
    expect(filtersHide({ assignee: 'me' }, created, member)).toBe(true);
    expect(filtersHide({ assignee: 'me' }, created)).toBe(true);
    expect(filtersHide({ assignee: member }, created)).toBe(true);
    expect(filtersHide({ assignee: 'none' }, created)).toBe(false);
    expect(filtersHide({ label }, created)).toBe(true);
    expect(filtersHide({ priority: 'high,urgent' }, created)).toBe(true);
    expect(filtersHide({ priority: 'none,high' }, created)).toBe(false);
    expect(filtersHide({ q: 'domain' }, created)).toBe(false);
    expect(filtersHide({ q: 'billing' }, created)).toBe(true);
  });

  it('keeps a task that matches any of several assignees or labels', () => {
    const other = '0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b';
    const mine = { ...created, assignee_id: member, label_ids: [other] };
    expect(filtersHide({ assignee: `none,${member}` }, mine)).toBe(false);
    expect(filtersHide({ assignee: `none,${member}` }, created)).toBe(false);
    expect(filtersHide({ assignee: `${label},${other}` }, mine)).toBe(true);
    expect(filtersHide({ assignee: 'none,me' }, mine, member)).toBe(false);
    expect(filtersHide({ assignee: 'none,me' }, mine, other)).toBe(true);
    expect(filtersHide({ label: `${label},${other}` }, mine)).toBe(false);
    expect(filtersHide({ label: `${label},${member}` }, mine)).toBe(true);
    expect(filtersHide({ label: `${label},${other}` }, created)).toBe(true);
  });

  it('reads the assignee, the labels and the description of any task', () => {
    const task = { ...created, description: 'About billing', assignee_id: member, label_ids: [label] };
    expect(filtersHide({ assignee: 'me' }, task, member)).toBe(false);
    expect(filtersHide({ assignee: 'me' }, task, label)).toBe(true);
    expect(filtersHide({ assignee: member, label, q: 'BILLING' }, task)).toBe(false);
    expect(filtersHide({ assignee: 'none' }, task)).toBe(true);
  });
});
