/**
 * What the browser tests share: people signed up through the web app, calls to the API with their
 * session, the accessibility check, screenshots, and dragging on the board.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { watchApiCalls } from './browser-api-calls.ts';
import { launchBrowser, watchPageErrors } from './browser.ts';
import { contrastRatio, decodePng, luminance, type Rgb } from './png-pixels.ts';
import { freshEmail, signUpInBrowser } from './web-accounts.ts';

export const SCREENSHOTS = 'test-results/screenshots';

export interface Person {
  context: BrowserContext;
  page: Page;
  email: string;
  /** What the page reported as errors, and every API call that broke openapi.yaml. */
  errors: string[];
  token: () => Promise<string>;
}

/**
 * A test file's browser, launched before its tests and closed after them, with the file's ways to sign
 * up a new person (each in a fresh profile, with `password`) and to call the API as one. Call it at the
 * top of the file.
 */
export function useBrowserPeople(password: string) {
  const stack = inject('stack');
  let launched: Browser | undefined;
  beforeAll(async () => {
    launched = await launchBrowser();
  });
  afterAll(async () => {
    await launched?.close();
  });
  const browser = (): Browser => {
    if (!launched) throw new Error('the browser is launched in beforeAll: use it inside a hook or a test');
    return launched;
  };
  return {
    browser,
    signUp: () => signUpPerson(browser(), stack, password),
    call: <T>(person: Person, method: string, path: string, body?: unknown) =>
      callApiAs<T>(stack.apiUrl, person.page, method, path, body),
  };
}

/** A new account, signed up through the web app's form in a fresh browser profile. */
export async function signUpPerson(
  browser: Browser,
  stack: { webUrl: string; apiUrl: string },
  password: string,
): Promise<Person> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const errors = watchPageErrors(page);
  watchApiCalls(page, stack.apiUrl, errors);
  const email = freshEmail();
  await signUpInBrowser(page, stack.webUrl, email, password);
  return { context, page, email, errors, token: () => sessionTokenOf(page) };
}

/** The access token of the session the web app keeps (supabase-js, in localStorage). */
export function sessionTokenOf(page: Page): Promise<string> {
  return page.evaluate(() => {
    // Runs in the page, where `localStorage` exists; the tests' types have no DOM.
    const storage = (globalThis as unknown as { localStorage: Record<string, string> }).localStorage;
    const key = Object.keys(storage).find((name) => name.endsWith('-auth-token')) ?? '';
    return (JSON.parse(storage[key] ?? '{}') as { access_token?: string }).access_token ?? '';
  });
}

/** Calls `/v1<path>` as the page's signed-in user and answers the raw response, error answers included. */
export async function sendApiAs(
  apiUrl: string,
  page: Page,
  method: string,
  path: string,
  body?: unknown,
): Promise<Response> {
  return fetch(`${apiUrl}/functions/v1/api/v1${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${await sessionTokenOf(page)}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Calls `/v1<path>` as the page's signed-in user, as an integrator would; fails on an error answer. */
export async function callApiAs<T>(
  apiUrl: string,
  page: Page,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await sendApiAs(apiUrl, page, method, path, body);
  expect(response.ok, `${method} ${path}: ${response.status} ${await response.clone().text()}`).toBe(true);
  return (await response.json()) as T;
}

/** Waits until no transition or animation runs (a toast fading in, colours changing with the scheme). */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    (globalThis as unknown as { document: { getAnimations: () => { playState: string }[] } }).document
      .getAnimations()
      .every((animation) => animation.playState !== 'running'),
  );
}

/**
 * What axe checks: WCAG 2.2's A and AA success criteria (with those of 2.0 and 2.1 they include), and axe's
 * best practices, which ran before the tags were named.
 */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/** No violation axe rates serious or critical on the page as it is now. */
export async function expectNoSeriousAxeViolations(
  page: Page,
  exclude: readonly string[] = [],
): Promise<void> {
  // A toast still fading in has the contrast of its half-way opacity.
  await settled(page);
  let axe = new AxeBuilder({ page }).withTags(AXE_TAGS);
  for (const selector of exclude) axe = axe.exclude(selector);
  const { violations } = await axe.analyze();
  const grave = violations.filter((violation) => ['serious', 'critical'].includes(violation.impact ?? ''));
  expect(
    grave.map(({ id, help, nodes }) => `${id}: ${help} (${nodes.map((node) => node.target).join(', ')})`),
  ).toEqual([]);
}

/** Screenshots at desktop and phone widths, in light and dark, named `<screen>-<width>-<scheme>.png`. */
export async function saveScreenshots(
  page: Page,
  screen: string,
  ready: () => Promise<unknown> = () => Promise.resolve(),
): Promise<void> {
  for (const width of [1280, 390]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      const height = width === 390 ? 844 : 860;
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme });
      await ready();
      // The workspace screens scroll inside <main>, which a full-page shot does not unroll: grow the window.
      const header = 53;
      const content = await page.locator('main').evaluate((main) => main.scrollHeight);
      await page.setViewportSize({ width, height: Math.max(height, content + header) });
      // No focus ring left over from the steps before (main takes focus without one), unless an open menu
      // or dialog holds the focus: moving it out would close the menu.
      const open = await page.locator('[role="menu"], [role="dialog"], [role="alertdialog"]').count();
      if (open === 0) await page.locator('main').focus();
      await settled(page);
      await page.screenshot({ path: `${SCREENSHOTS}/${screen}-${width}-${colorScheme}.png`, fullPage: true });
    }
  }
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * The contrast between the darkest and the lightest pixel in the middle of an element as the screen shows
 * it (a disc of `share` of its width around its centre): 1 when the middle is one flat colour, as an
 * icon whose mark cannot be seen.
 */
export async function contrastInside(element: Locator, share = 0.3): Promise<number> {
  const pixels = decodePng(await element.screenshot({ animations: 'disabled' }));
  const [centreX, centreY] = [pixels.width / 2, pixels.height / 2];
  const radius = pixels.width * share;
  let darkest: Rgb | undefined;
  let lightest: Rgb | undefined;
  for (let y = 0; y < pixels.height; y += 1) {
    for (let x = 0; x < pixels.width; x += 1) {
      if (Math.hypot(x + 0.5 - centreX, y + 0.5 - centreY) > radius) continue;
      const colour = pixels.at(x, y);
      if (!darkest || luminance(colour) < luminance(darkest)) darkest = colour;
      if (!lightest || luminance(colour) > luminance(lightest)) lightest = colour;
    }
  }
  if (!darkest || !lightest) throw new Error('The element has no pixels.');
  return contrastRatio(darkest, lightest);
}

export const boardColumn = (page: Page, status: string) => page.locator(`[data-column="${status}"]`);
export const boardCard = (page: Page, key: string) => page.locator(`a[data-task-key="${key}"]`);

/**
 * How long to wait for the board's drag-and-drop kit, which loads once the board has shown and is quiet
 * (about a second in dev mode on a busy machine): a wait for modules, not a time limit on the app, so
 * generous, unlike expect.poll's own 1 s.
 */
export const KIT_LOAD_MS = 15_000;

/** Drags with the mouse in small steps, as a person does, so dnd-kit sees the pointer move. */
export async function dragWithMouse(page: Page, from: Locator, to: Locator): Promise<void> {
  // Both columns in view, away from the board's edges, where dragging would scroll it.
  await from.evaluate((element) => element.closest('section')?.scrollIntoView({ inline: 'start' }));
  // The board may still be taking its drag-and-drop kit, a column at a time: wait until both stand still.
  const boxes = async () => JSON.stringify([await from.boundingBox(), await to.boundingBox()]);
  let last = '';
  const settled = async () => {
    const now = await boxes();
    const still = now === last && !now.includes('null');
    last = now;
    return still;
  };
  await expect.poll(settled, { interval: 100 }).toBe(true);
  const start = await from.boundingBox();
  const end = await to.boundingBox();
  if (!start || !end) throw new Error('The card or the column is not on screen.');
  await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
  await page.mouse.down();
  await page.mouse.move(start.x + start.width / 2 + 10, start.y + start.height / 2 + 10, { steps: 5 });
  await page.mouse.move(end.x + end.width / 2, end.y + 80, { steps: 20 });
  await page.mouse.up();
}
