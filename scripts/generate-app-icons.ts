// Draws the installed app's icons (web/public/icons/*.png) from the favicon's shapes, in Chromium, so that
// they stay one drawing. Run after changing web/public/favicon.svg: `npx tsx scripts/generate-app-icons.ts`.
import { readFile, mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const publicDir = fileURLToPath(new URL('../web/public/', import.meta.url));

interface Icon {
  file: string;
  size: number;
  /** Maskable icons fill the square and keep the mark inside the middle 80 % (the safe zone). */
  maskable: boolean;
}

const ICONS: readonly Icon[] = [
  { file: 'icon-192.png', size: 192, maskable: false },
  { file: 'icon-512.png', size: 512, maskable: false },
  { file: 'icon-maskable-512.png', size: 512, maskable: true },
  { file: 'apple-touch-icon-180.png', size: 180, maskable: true },
];

const svg = await readFile(`${publicDir}favicon.svg`, 'utf8');
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  await mkdir(`${publicDir}icons`, { recursive: true });
  for (const icon of ICONS) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
    const mark = icon.maskable ? 'width:64%;height:64%;margin:18%' : 'width:100%;height:100%';
    const background = icon.maskable ? '#5e6ad2' : 'transparent';
    await page.setContent(
      `<body style="margin:0;background:${background}"><div style="${mark}">${svg.replace(
        '<svg ',
        '<svg width="100%" height="100%" ',
      )}</div></body>`,
    );
    await page.screenshot({ path: `${publicDir}icons/${icon.file}`, omitBackground: !icon.maskable });
    await page.close();
  }
} finally {
  await browser.close();
}
