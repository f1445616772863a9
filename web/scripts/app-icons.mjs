// Renders the PWA icons (public/icons/*.png) from public/favicon.svg with the Chromium the e2e
// and Lighthouse use (CHROMIUM_PATH, default /usr/bin/chromium). Run after changing the logo:
// node scripts/app-icons.mjs
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');
const svg = readFileSync(join(web, 'public/favicon.svg'), 'utf8');
// `any`: the logo as it is; `maskable`: on the brand colour with the logo inside the 80 % safe
// zone, for launchers that cut their own shape; Apple draws its own rounded corners.
const ICONS = [
  { file: 'icon-192.png', size: 192, inset: 0, square: false },
  { file: 'icon-512.png', size: 512, inset: 0, square: false },
  { file: 'maskable-512.png', size: 512, inset: 0.14, square: true },
  { file: 'apple-touch-icon.png', size: 180, inset: 0.08, square: true },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
});
try {
  for (const icon of ICONS) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
    const pad = Math.round(icon.size * icon.inset);
    await page.setContent(
      `<html><body style="margin:0;background:${icon.square ? '#005cbb' : 'transparent'}">` +
        `<div style="padding:${pad}px;width:${icon.size - 2 * pad}px;height:${icon.size - 2 * pad}px">` +
        svg.replace('<svg ', '<svg width="100%" height="100%" ') +
        `</div></body></html>`,
    );
    await page.screenshot({
      path: join(web, 'public/icons', icon.file),
      omitBackground: !icon.square,
    });
    await page.close();
  }
} finally {
  await browser.close();
}
