/**
 * Every route path of the app, in TanStack Router syntax (`$param` for a path parameter), so routes and
 * links share one spelling.
 */
export const paths = {
  home: '/',
  signIn: '/sign-in',
  signUp: '/sign-up',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  mfa: '/mfa',
  account: '/account',
  inbox: '/inbox',
  invite: '/invite/$token',
  unsubscribe: '/unsubscribe/$token',
  docsApi: '/docs/api',
  docsApiTour: '/docs/api/tour',
  newWorkspace: '/new',
  workspace: '/w/$slug',
  board: '/w/$slug/p/$key',
  task: '/w/$slug/p/$key/t/$number',
  settings: '/w/$slug/settings',
  settingsGeneral: '/w/$slug/settings/general',
  settingsMembers: '/w/$slug/settings/members',
  settingsInvitations: '/w/$slug/settings/invitations',
  settingsLabels: '/w/$slug/settings/labels',
  settingsProjects: '/w/$slug/settings/projects',
  settingsExport: '/w/$slug/settings/export',
  settingsImport: '/w/$slug/settings/import',
  settingsWebhooks: '/w/$slug/settings/webhooks',
} as const;

/** Where an invitation's link leads, as a path; sign-in and sign-up say why they ask when sent from one. */
export const INVITATION_PATH_PREFIX = '/invite/';

export const invitationPath = (token: string): string => `${INVITATION_PATH_PREFIX}${token}`;
