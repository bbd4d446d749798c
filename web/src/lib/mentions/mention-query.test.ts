import { describe, expect, test } from 'vitest';
import { findMentionQuery, insertMention, matchMembers } from './mention-query.ts';

const LEO = '2c4e6a8b-1d3f-4a5b-9c7d-0e2f4a6b8c0d';

describe('findMentionQuery', () => {
  test('the @ and what follows it up to the caret', () => {
    expect(findMentionQuery('Hey @le', 7)).toEqual({ start: 4, end: 7, query: 'le' });
    expect(findMentionQuery('@', 1)).toEqual({ start: 0, end: 1, query: '' });
    expect(findMentionQuery('line\n@ma', 8)).toEqual({ start: 5, end: 8, query: 'ma' });
    expect(findMentionQuery('(@ma', 4)).toEqual({ start: 1, end: 4, query: 'ma' });
  });

  test('the caret in the middle of a word after @ reads up to the caret only', () => {
    expect(findMentionQuery('Hey @leo there', 6)).toEqual({ start: 4, end: 6, query: 'l' });
  });

  test('nothing for an address, a written mention, a space after @, or a selection', () => {
    expect(findMentionQuery('maya@example', 12)).toBeNull();
    expect(findMentionQuery(`<@${LEO}`, 2 + LEO.length)).toBeNull();
    expect(findMentionQuery('Hey @le o', 9)).toBeNull();
    expect(findMentionQuery('Hey @le', 4, 7)).toBeNull();
    expect(findMentionQuery('Hey', 3)).toBeNull();
  });

  test('nothing past a long run without a space', () => {
    expect(findMentionQuery(`@${'a'.repeat(40)}`, 41)).toBeNull();
  });
});

/** The `@query` at the end of `text`, which the cases below are sure of. */
function queryAt(text: string, caret = text.length) {
  const at = findMentionQuery(text, caret);
  if (!at) throw new Error(`no @query in ${text}`);
  return at;
}

describe('insertMention', () => {
  test('the query becomes the token and a space; the caret goes after the space', () => {
    const text = 'Hey @le';
    const at = queryAt(text, 7);
    expect(insertMention(text, at, LEO)).toEqual({ text: `Hey <@${LEO}> `, caret: 4 + LEO.length + 4 });
  });

  test('the text after the caret stays, and a space already there is not doubled', () => {
    const text = 'Hey @le please';
    const at = queryAt(text, 7);
    const inserted = insertMention(text, at, LEO);
    expect(inserted.text).toBe(`Hey <@${LEO}> please`);
    expect(inserted.text.slice(inserted.caret)).toBe('please');
    const glued = insertMention('@lx', queryAt('@lx', 2), LEO);
    expect(glued.text).toBe(`<@${LEO}> x`);
    expect(glued.text.slice(glued.caret)).toBe('x');
  });
});

describe('matchMembers', () => {
  const members = [
    { user_id: '1', display_name: 'Maya Lopez', email: 'maya@example.com' },
    { user_id: '2', display_name: 'Leo', email: 'leo@example.com' },
    { user_id: '3', display_name: 'Élodie Park', email: 'ep@example.com' },
    { user_id: '4', display_name: 'Ana', email: 'lead@example.com' },
  ];
  const names = (query: string) => matchMembers(members, query).map((m) => m.display_name);

  test('names first, then a later word of the name, then the e-mail', () => {
    expect(names('le')).toEqual(['Leo', 'Ana']);
    expect(names('lo')).toEqual(['Maya Lopez']);
    expect(names('LEO')).toEqual(['Leo']);
  });

  test('accents aside; an empty query lists everyone by name', () => {
    expect(names('elo')).toEqual(['Élodie Park']);
    expect(names('')).toEqual(['Ana', 'Élodie Park', 'Leo', 'Maya Lopez']);
  });
});
