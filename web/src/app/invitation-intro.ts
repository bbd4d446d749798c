/** Where an invitation's link leads: sign-in and sign-up say why they ask when they were sent from it. */
export const INVITATION_INTRO_PATH = '/invite/';
