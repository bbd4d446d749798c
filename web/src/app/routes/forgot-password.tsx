import { Link } from '@tanstack/react-router';
import { FormPanel } from '../../components/ui/form-panel.tsx';
import { paths } from '../../config/paths.ts';
import { ForgotPasswordForm } from '../../features/auth/components/forgot-password-form.tsx';

export function ForgotPasswordScreen() {
  return (
    <FormPanel
      title="Reset your password"
      intro="Enter the e-mail you sign in with and we will send you a link to choose a new password."
      footer={<Link to={paths.signIn}>Back to sign in</Link>}
    >
      <title>Reset your password · Tasklane</title>
      <ForgotPasswordForm />
    </FormPanel>
  );
}
