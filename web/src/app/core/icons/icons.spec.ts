import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { TestBed } from '@angular/core/testing';
import { Component } from '@angular/core';
import { MatIcon } from '@angular/material/icon';
import { ICON_SVGS } from './icons';

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (/\.(ts|html)$/.test(entry.name) && !entry.name.endsWith('.spec.ts')) yield path;
  }
}

@Component({ imports: [MatIcon], template: '<mat-icon svgIcon="search" />' })
class Host {}

describe('SVG icons (issue 14: no 3.9 MB icon font)', () => {
  const app = join(__dirname, '../..');
  const texts = [...sources(app)].map((file) => [file, readFileSync(file, 'utf8')] as const);

  it('should have every icon a template names, generated (run `node web/scripts/icons.mjs`)', () => {
    const missing: string[] = [];
    for (const [file, text] of texts) {
      for (const match of text.matchAll(/svgIcon="([a-z0-9_]+)"/g)) {
        if (!ICON_SVGS[match[1]!]) missing.push(`${file}: ${match[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('should leave no ligature icon behind (the icon font is gone)', () => {
    const ligatures = texts
      .filter(([, text]) => /<mat-icon\b(?:[^>]*[^/])?>\s*[^<\s]/.test(text))
      .map(([file]) => file);
    expect(ligatures).toEqual([]);
  });

  it('should draw a registered icon as inline SVG', async () => {
    const fixture = TestBed.createComponent(Host);
    await fixture.whenStable();
    const svg = (fixture.nativeElement as HTMLElement).querySelector('mat-icon svg');
    expect(svg).not.toBeNull();
    expect(svg!.getAttribute('viewBox')).toBe('0 0 24 24');
  });
});
