import { useQueries } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button.tsx';
import { LoadError } from '../../components/ui/load-error.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { paths } from '../../config/paths.ts';
import { describeError } from '../../lib/api/api-error.ts';
import { membersQueryOptions } from '../../features/members/api/list-members.ts';
import {
  notificationsOf,
  useNotifications,
  type Notification,
} from '../../features/notifications/api/list-notifications.ts';
import { useMarkAllRead } from '../../features/notifications/api/mark-all-read.ts';
import { useUnreadCount } from '../../features/notifications/api/unread-count.ts';
import { InboxList, InboxSkeleton } from '../../features/notifications/components/inbox-list.tsx';
import { inboxFilters, type InboxSearch } from '../../features/notifications/inbox-search.ts';
import { projectKeyOf } from '../../features/tasks/task-key.ts';
import styles from './inbox.module.css';

const route = getRouteApi('/signed-in/inbox');

/** `/inbox`: the signed-in person's notifications from every workspace, newest day first. */
export function InboxScreen() {
  const search = route.useSearch();
  const filters = inboxFilters(search);
  const notifications = useNotifications(filters);
  const unread = useUnreadCount();
  const markAllRead = useMarkAllRead();
  const list = notificationsOf(notifications.data);
  const nameOf = useMemberNames(list);
  const openNotification = useOpenNotification();

  return (
    <div className={styles.page}>
      <title>Inbox · Tasklane</title>
      <PageHeader>
        <h1 className="page-title">{filters.archived ? 'Archived' : 'Inbox'}</h1>
        <Button
          onClick={() =>
            markAllRead.mutate(undefined, { onError: (error) => toast.error(describeError(error)) })
          }
          disabled={(unread.data?.unread ?? 0) === 0 || markAllRead.isPending}
        >
          Mark all read
        </Button>
      </PageHeader>
      <Filters search={search} />
      {notifications.isPending ? (
        <InboxSkeleton />
      ) : notifications.error ? (
        <LoadError
          what="Your notifications"
          error={notifications.error}
          onRetry={() => void notifications.refetch()}
          retrying={notifications.isFetching}
        />
      ) : list.length === 0 ? (
        <p className={styles.empty}>{filters.archived ? 'Nothing archived.' : 'You’re all caught up.'}</p>
      ) : (
        <>
          <InboxList notifications={list} nameOf={nameOf} onOpen={openNotification} />
          <p className={styles.hint}>
            <kbd>j</kbd> <kbd>k</kbd> move, <kbd>Enter</kbd> opens, <kbd>e</kbd> archives, <kbd>u</kbd> marks
            read or unread
          </p>
          {notifications.hasNextPage && (
            <Button
              className={styles.more}
              onClick={() => void notifications.fetchNextPage()}
              disabled={notifications.isFetchingNextPage}
            >
              {notifications.isFetchingNextPage ? 'Loading…' : 'Show older'}
            </Button>
          )}
        </>
      )}
    </div>
  );
}

/** The view (inbox or archived) and the unread toggle, kept in the address. */
function Filters({ search }: { search: InboxSearch }) {
  const archived = search.archived === true;
  return (
    <nav className={styles.filters} aria-label="Notification filters">
      <span className={styles.views}>
        <Link
          to={paths.inbox}
          search={{ unread: search.unread }}
          className={styles.view}
          aria-current={!archived ? 'page' : undefined}
        >
          Inbox
        </Link>
        <Link
          to={paths.inbox}
          search={{ unread: search.unread, archived: true }}
          className={styles.view}
          aria-current={archived ? 'page' : undefined}
        >
          Archived
        </Link>
      </span>
      <Link
        to={paths.inbox}
        search={{ archived: search.archived, unread: search.unread ? undefined : true }}
        className={styles.toggle}
        role="switch"
        aria-checked={search.unread === true}
      >
        Unread only
      </Link>
    </nav>
  );
}

/** Members' names by workspace, read for each workspace the notifications come from (cached with the board's). */
function useMemberNames(notifications: Notification[]) {
  const slugs = [...new Set(notifications.map((notification) => notification.workspace.slug))];
  const members = useQueries({ queries: slugs.map((slug) => membersQueryOptions(slug)) });
  return (slug: string, userId: string): string | undefined => {
    const list = members[slugs.indexOf(slug)]?.data;
    return list?.find((member) => member.user_id === userId)?.display_name;
  };
}

/** A notification opens its task (at its comment, when it has one), or the workspace for an invitation. */
function useOpenNotification() {
  const navigate = useNavigate();
  return (notification: Notification) => {
    const slug = notification.workspace.slug;
    if (!notification.task) {
      void navigate({ to: paths.workspace, params: { slug } });
      return;
    }
    const taskKey = notification.task.key;
    void navigate({
      to: paths.task,
      params: {
        slug,
        key: projectKeyOf(taskKey),
        number: Number(taskKey.slice(taskKey.lastIndexOf('-') + 1)),
      },
      hash: notification.comment ? `comment-${notification.comment.id}` : undefined,
    });
  };
}
