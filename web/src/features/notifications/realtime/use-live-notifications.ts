import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { notificationKeys } from '../api/query-keys.ts';
import { connectUserTopic } from './connect-user-topic.ts';

/**
 * Keeps the bell and the inbox live while someone is signed in: each message of their topic (and each
 * join, which may have missed one) reads the unread count and the inbox again.
 */
export function useLiveNotifications(userId: string | undefined): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!userId) return;
    return connectUserTopic({
      userId,
      onChange: () => void queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
    });
  }, [queryClient, userId]);
}
