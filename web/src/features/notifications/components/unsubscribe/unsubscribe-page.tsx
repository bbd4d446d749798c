import { Link } from '@tanstack/react-router';
import { Alert } from '../../../../components/ui/alert.tsx';
import { Button } from '../../../../components/ui/button.tsx';
import { FormPanel } from '../../../../components/ui/form-panel.tsx';
import { paths } from '../../../../config/paths.ts';
import { ApiError, describeError } from '../../../../lib/api/api-error.ts';
import { useUnsubscribeFromMail } from '../../api/unsubscribe.ts';
import { topicsOf, typesInUnsubscribeToken } from '../../notification-types.ts';

interface UnsubscribePageProps {
  token: string;
}

/**
 * `/unsubscribe/:token`: what the mail's link will stop, and a button that stops it. Opening the page
 * changes nothing (mail scanners open links); only the button does.
 */
export function UnsubscribePage({ token }: UnsubscribePageProps) {
  const unsubscribe = useUnsubscribeFromMail(token);
  const types = typesInUnsubscribeToken(token);

  if (unsubscribe.isSuccess) {
    return (
      <FormPanel title="You are unsubscribed">
        <p role="status">
          Done. You will get no more e-mails about {topicsOf(unsubscribe.data.types) || 'these notifications'}
          . Your inbox in Tasklane still tells you.
        </p>
        <p>
          <Link to={paths.account} hash="notifications">
            Choose how you hear of each kind of notification
          </Link>
        </p>
      </FormPanel>
    );
  }

  const invalid =
    types === undefined || (unsubscribe.error instanceof ApiError && unsubscribe.error.status === 404);
  if (invalid) {
    return (
      <FormPanel title="This unsubscribe link does not work">
        <p>
          Check that you opened the whole link from the e-mail. You can also choose which e-mails you get in
          your account’s notification settings.
        </p>
        <p>
          <Link to={paths.account} hash="notifications">
            Notification settings
          </Link>
        </p>
      </FormPanel>
    );
  }

  return (
    <FormPanel title="Stop these e-mails?">
      <p>You will no longer get e-mails about {topicsOf(types)}. Your inbox in Tasklane still tells you.</p>
      {unsubscribe.isError && (
        <Alert>The e-mails were not turned off: {describeError(unsubscribe.error)}</Alert>
      )}
      <Button variant="primary" disabled={unsubscribe.isPending} onClick={() => unsubscribe.mutate()}>
        {unsubscribe.isPending
          ? 'Turning off…'
          : unsubscribe.isError
            ? 'Try again'
            : 'Turn off these e-mails'}
      </Button>
    </FormPanel>
  );
}
