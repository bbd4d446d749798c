import { createContext, useContext } from 'react';
import type { Member } from '../panel/task-context.ts';

/**
 * The workspace's current members, for mentions: a chip's name (`@Maya`) and the picker's list. The task
 * panel provides them (TaskView); outside it, no one is known and every mention reads "@former member".
 */
export const MentionMembers = createContext<readonly Member[]>([]);

export const useMentionMembers = (): readonly Member[] => useContext(MentionMembers);
