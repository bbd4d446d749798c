import { describe, expect, test } from 'vitest';
import { mentionParts, mentionText } from './mention-text.ts';

const LEO = '2c4e6a8b-1d3f-4a5b-9c7d-0e2f4a6b8c0d';
const GONE = '7d1f0c22-1a2b-4c3d-8e4f-5a6b7c8d9e0f';

describe('mentionText', () => {
  test('mentions read as @name, or @former member when unknown', () => {
    const names = new Map([[LEO, 'Leo']]);
    expect(mentionText(`<@${LEO}> and <@${GONE}>, look <b>here</b>`, (id) => names.get(id))).toBe(
      '@Leo and @former member, look <b>here</b>',
    );
  });

  test('upper-case ids are found too', () => {
    expect(mentionText(`hi <@${LEO.toUpperCase()}>`, (id) => (id === LEO ? 'Leo' : undefined))).toBe(
      'hi @Leo',
    );
  });
});

describe('mentionParts', () => {
  test('words and mentions in order, ids in lower case', () => {
    expect(mentionParts(`Hey <@${LEO.toUpperCase()}> and <@${GONE}>`)).toEqual([
      { kind: 'text', text: 'Hey ' },
      { kind: 'mention', userId: LEO },
      { kind: 'text', text: ' and ' },
      { kind: 'mention', userId: GONE },
    ]);
    expect(mentionParts('no mention')).toEqual([{ kind: 'text', text: 'no mention' }]);
    expect(mentionParts('')).toEqual([]);
  });
});
