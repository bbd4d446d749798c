/**
 * What the demo workspace holds (supabase/seed.sql, generated from it by local/demo-seed.ts, writes it): a
 * small agency relaunching its website while keeping its systems running. Tasks are listed per project in
 * board order (within a status, the order given here); due dates are days from the day the workspace is
 * made.
 */
import type { TaskPriority, TaskStatus } from '../supabase/functions/_shared/api-types.ts';

/** The account every fresh stand-in has, so that there is something to sign in with. Local use only. */
export const DEMO_ACCOUNT = {
  email: 'demo@tasklane.local',
  password: 'tasklane-demo',
  displayName: 'Demo User',
} as const;

/** Who the demo people are; `demo` is the demo account itself. */
export type DemoPersonKey = 'demo' | 'maya' | 'leo' | 'sam';

export interface DemoPerson {
  email: string;
  displayName: string;
  role: 'owner' | 'admin' | 'member';
}

/** The people besides the demo account, signed up like it (same password), so each can sign in too. */
export const DEMO_PEOPLE: Readonly<Record<Exclude<DemoPersonKey, 'demo'>, DemoPerson>> = {
  maya: { email: 'maya@tasklane.local', displayName: 'Maya Patel', role: 'admin' },
  leo: { email: 'leo@tasklane.local', displayName: 'Leo Martin', role: 'member' },
  sam: { email: 'sam@tasklane.local', displayName: 'Sam Okafor', role: 'member' },
};

export const DEMO_WORKSPACE = { slug: 'demo', name: 'Demo Co' } as const;

export const DEMO_LABELS = {
  bug: '#d73a4a',
  feature: '#0e8a16',
  design: '#a855f7',
  content: '#0075ca',
  infra: '#6b7280',
  security: '#f59e0b',
} as const;
export type DemoLabel = keyof typeof DEMO_LABELS;

export interface DemoComment {
  by: DemoPersonKey;
  body: string;
}

export interface DemoTask {
  title: string;
  description?: string;
  status: TaskStatus;
  priority: TaskPriority;
  assignee?: DemoPersonKey;
  labels?: readonly DemoLabel[];
  /** Days from today; negative is overdue. */
  dueInDays?: number;
  /** Who created it; the demo account unless said. */
  by?: DemoPersonKey;
  comments?: readonly DemoComment[];
}

export interface DemoProject {
  key: string;
  name: string;
  description: string;
  tasks: readonly DemoTask[];
}

const WEBSITE: DemoProject = {
  key: 'WEB',
  name: 'Website relaunch',
  description: 'The new marketing site: design, content and a launch before the end of the quarter.',
  tasks: [
    { title: 'Case study: Northwind logistics', status: 'backlog', priority: 'low', labels: ['content'] },
    {
      title: 'Add a dark theme to the marketing pages',
      status: 'backlog',
      priority: 'none',
      labels: ['design', 'feature'],
    },
    {
      title: 'Localise the site into German',
      status: 'backlog',
      priority: 'low',
      labels: ['content'],
      by: 'maya',
    },
    {
      title: 'Write the pricing page copy',
      description: 'Three plans, a comparison table and an FAQ. Keep it under 400 words.',
      status: 'todo',
      priority: 'high',
      assignee: 'leo',
      labels: ['content'],
      dueInDays: 5,
    },
    {
      title: 'Set up redirects from the old URLs',
      status: 'todo',
      priority: 'medium',
      assignee: 'sam',
      labels: ['infra'],
      dueInDays: 12,
    },
    {
      title: 'Cookie banner that respects "reject all"',
      status: 'todo',
      priority: 'medium',
      labels: ['feature'],
      dueInDays: 9,
    },
    {
      title: 'Build the new navigation',
      description: '- Mega menu on desktop\n- Drawer on mobile\n- Keyboard accessible (see the design file)',
      status: 'in_progress',
      priority: 'high',
      assignee: 'sam',
      labels: ['feature', 'design'],
      dueInDays: 3,
      comments: [
        { by: 'maya', body: 'The drawer animation feels slow on older phones, can we cut it to 150 ms?' },
        { by: 'sam', body: 'Done in the latest preview. Also fixed the focus trap.' },
      ],
    },
    {
      title: 'Hero illustration for the home page',
      status: 'in_progress',
      priority: 'medium',
      assignee: 'maya',
      labels: ['design'],
      dueInDays: 4,
    },
    {
      title: 'Contact form sends two e-mails',
      description: 'Submitting the form once sends the confirmation twice. Reproduced in Firefox and Safari.',
      status: 'in_review',
      priority: 'urgent',
      assignee: 'leo',
      labels: ['bug'],
      dueInDays: -1,
      by: 'sam',
      comments: [{ by: 'leo', body: 'The submit handler was bound twice. Fix is up for review.' }],
    },
    {
      title: 'Blog index with pagination',
      status: 'in_review',
      priority: 'medium',
      assignee: 'sam',
      labels: ['feature'],
      dueInDays: 2,
    },
    { title: 'Pick the typefaces', status: 'done', priority: 'medium', assignee: 'maya', labels: ['design'] },
    {
      title: 'Moodboard and colour palette',
      status: 'done',
      priority: 'low',
      assignee: 'maya',
      labels: ['design'],
    },
    { title: 'Choose the static site generator', status: 'done', priority: 'high', assignee: 'sam' },
    {
      title: 'Sitemap for the new site',
      status: 'done',
      priority: 'medium',
      assignee: 'leo',
      labels: ['content'],
    },
    {
      title: 'Animated background video',
      description: 'Dropped: too heavy for mobile.',
      status: 'canceled',
      priority: 'low',
      labels: ['design'],
    },
    {
      title: 'Newsletter pop-up on every page',
      status: 'canceled',
      priority: 'none',
      labels: ['feature'],
      by: 'maya',
    },
    {
      title: 'Lighthouse score above 95 on mobile',
      status: 'backlog',
      priority: 'medium',
      labels: ['infra'],
    },
    {
      title: 'Team page with photos',
      status: 'todo',
      priority: 'low',
      assignee: 'leo',
      labels: ['content'],
      dueInDays: 20,
    },
  ],
};

const OPERATIONS: DemoProject = {
  key: 'OPS',
  name: 'Operations',
  description: 'Keeping the lights on: infrastructure, on-call, security and the tools we work with.',
  tasks: [
    { title: 'Evaluate a status page service', status: 'backlog', priority: 'low', labels: ['infra'] },
    {
      title: 'Move old backups to cold storage',
      status: 'backlog',
      priority: 'low',
      labels: ['infra'],
      by: 'sam',
    },
    { title: 'Write the on-call handbook', status: 'backlog', priority: 'medium', labels: ['content'] },
    {
      title: 'Renew the TLS certificate for the API',
      description: 'The current one expires soon. Switch to automatic renewal while we are at it.',
      status: 'todo',
      priority: 'urgent',
      assignee: 'sam',
      labels: ['security', 'infra'],
      dueInDays: 2,
      comments: [{ by: 'demo', body: 'Please check the staging certificate too, it is on the same plan.' }],
    },
    {
      title: 'Rotate the database passwords',
      status: 'todo',
      priority: 'high',
      assignee: 'maya',
      labels: ['security'],
      dueInDays: 7,
    },
    {
      title: 'Offboarding checklist',
      status: 'todo',
      priority: 'medium',
      labels: ['content'],
      dueInDays: 14,
    },
    {
      title: 'Upgrade PostgreSQL to 17',
      description: 'Test the upgrade on a copy of production first; plan a 10-minute window.',
      status: 'in_progress',
      priority: 'high',
      assignee: 'sam',
      labels: ['infra'],
      dueInDays: 6,
      comments: [
        { by: 'sam', body: 'The copy upgraded cleanly in 4 minutes. Scheduling the real one.' },
        { by: 'maya', body: 'Thursday evening works for support.' },
      ],
    },
    {
      title: 'Set up alerts for disk usage',
      status: 'in_progress',
      priority: 'medium',
      assignee: 'leo',
      labels: ['infra'],
      dueInDays: 1,
    },
    {
      title: 'Enforce two-factor sign-in for admins',
      status: 'in_review',
      priority: 'high',
      assignee: 'maya',
      labels: ['security'],
      dueInDays: -2,
    },
    {
      title: 'Nightly backup job fails on Sundays',
      description: 'It runs into the maintenance window. Move it one hour earlier.',
      status: 'in_review',
      priority: 'urgent',
      assignee: 'sam',
      labels: ['bug', 'infra'],
      dueInDays: 0,
      by: 'leo',
    },
    { title: 'Inventory of laptops and licences', status: 'done', priority: 'low', assignee: 'leo' },
    {
      title: 'Move DNS to the new provider',
      status: 'done',
      priority: 'high',
      assignee: 'sam',
      labels: ['infra'],
    },
    {
      title: 'Password manager for the whole team',
      status: 'done',
      priority: 'medium',
      assignee: 'maya',
      labels: ['security'],
    },
    {
      title: 'Self-hosted chat server',
      description: 'We stay with the hosted one.',
      status: 'canceled',
      priority: 'low',
      labels: ['infra'],
    },
    {
      title: 'Quarterly access review',
      status: 'todo',
      priority: 'medium',
      assignee: 'demo',
      labels: ['security'],
      dueInDays: 30,
    },
    {
      title: 'Clean up unused cloud resources',
      status: 'backlog',
      priority: 'low',
      labels: ['infra'],
      by: 'maya',
    },
  ],
};

export const DEMO_PROJECTS: readonly DemoProject[] = [WEBSITE, OPERATIONS];
