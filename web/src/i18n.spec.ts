import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  ERROR_CODES,
  SETTING_CHECK_REASONS,
  SETTING_TYPES,
  UPSTREAM_SYSTEMS,
} from '@usher/contracts/values';
import en from './assets/i18n/en.json';
import zhCN from './assets/i18n/zh-CN.json';
import { formatIcu } from './app/core/i18n/icu';
import { findVisibleLiterals } from './testing/visible-literals';

/** Flattens `{a: {b: 'x'}}` to `['a.b']`, the way transloco addresses keys. */
function keysOf(tree: object, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null
      ? keysOf(value as object, `${prefix}${key}.`)
      : [`${prefix}${key}`],
  );
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    const isSource = /\.(ts|html)$/.test(entry.name) && !/\.spec\.ts$/.test(entry.name);
    return isSource ? [path] : [];
  });
}

const appDir = join(__dirname, 'app');
const files = sourceFiles(appDir);
const enKeys = new Set(keysOf(en));
const namespaces = new Set(Object.keys(en));

/** Component templates: `templateUrl` files and inline `template:` literals. */
function templates(): { file: string; template: string }[] {
  return files.flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    if (file.endsWith('.html')) return [{ file, template: text }];
    const inline = /\btemplate:\s*`([^`]*)`/.exec(text);
    return inline ? [{ file, template: inline[1]! }] : [];
  });
}

describe('translations', () => {
  it('should have the same keys in English and Simplified Chinese', () => {
    expect(keysOf(zhCN).sort()).toEqual(keysOf(en).sort());
  });

  it('should name each key once in an object (JSON.parse keeps only the last of a twice-named key)', () => {
    for (const lang of ['en', 'zh-CN']) {
      const text = readFileSync(join(__dirname, 'assets/i18n', `${lang}.json`), 'utf8');
      const twice: string[] = [];
      const open: Set<string>[] = [];
      for (const token of text.matchAll(/"((?:[^"\\]|\\.)*)"(\s*:)?|[{}]/g)) {
        if (token[0] === '{') open.push(new Set());
        else if (token[0] === '}') open.pop();
        else if (!token[2]) continue;
        else if (open.at(-1)!.has(token[1]!)) twice.push(token[1]!);
        else open.at(-1)!.add(token[1]!);
      }
      expect({ lang, twice }).toEqual({ lang, twice: [] });
    }
  });

  it('should have no empty message', () => {
    for (const [lang, tree] of [
      ['en', en],
      ['zh-CN', zhCN],
    ] as const) {
      const empty = keysOf(tree).filter((key) => {
        const value = key.split('.').reduce<unknown>((node, part) => (node as never)[part], tree);
        return typeof value !== 'string' || value.trim() === '';
      });
      expect({ lang, empty }).toEqual({ lang, empty: [] });
    }
  });

  it('should hold only messages the ICU formatter can parse', () => {
    for (const [lang, tree] of [
      ['en', en],
      ['zh-CN', zhCN],
    ] as const) {
      for (const key of keysOf(tree)) {
        const value = key.split('.').reduce<unknown>((node, part) => (node as never)[part], tree);
        expect(() => formatIcu(value as string, {}, lang)).not.toThrow();
      }
    }
  });

  it('should translate every API error code, upstream system, check reason and setting type', () => {
    const missing = [
      ...ERROR_CODES.map((code) => `errors.${code}`),
      ...UPSTREAM_SYSTEMS.map((system) => `systems.${system}`),
      ...SETTING_CHECK_REASONS.map((reason) => `adminSettings.test.reason.${reason}`),
      ...SETTING_TYPES.map((type) => `adminSettings.invalid.${type}`),
    ].filter((key) => !enKeys.has(key));
    expect(missing).toEqual([]);
  });

  it('should define every key the sources use', () => {
    const missing: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const [, key] of text.matchAll(/['"]([a-z][A-Za-z]*(?:\.[A-Za-z0-9_-]+)+\.?)['"]/g)) {
        if (!namespaces.has(key!.split('.')[0]!)) continue; // a file name, a storage key…
        const known = key!.endsWith('.')
          ? [...enKeys].some((k) => k.startsWith(key!))
          : enKeys.has(key!);
        if (!known) missing.push(`${relative(appDir, file)}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('user-visible text', () => {
  it('should come from the translation files, never from a template literal', () => {
    const found = templates().flatMap(({ file, template }) =>
      findVisibleLiterals(template, file).map((what) => `${relative(appDir, file)}: ${what}`),
    );
    expect(found).toEqual([]);
  });

  it('should not be passed as a literal to snackbars, announcers or the title', () => {
    const found = files.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      const calls = text.matchAll(
        /\b(open|announce|setTitle|alert|confirm)\(\s*(['"`])([^'"`]*)\2/g,
      );
      return [...calls]
        .filter(([, , , literal]) => /\s/.test(literal!) || /^[A-Z]/.test(literal!))
        .map(([call]) => `${relative(appDir, file)}: ${call}`);
    });
    expect(found).toEqual([]);
  });

  describe('the template check itself', () => {
    it.each([
      ['<p>Hello there</p>', 'text "Hello there"'],
      ['<button aria-label="Close it"></button>', 'aria-label="Close it" on <button>'],
      ["<p>{{ 'Plain words' }}</p>", 'text "Plain words"'],
      ["<p>{{ ok ? 'Yes' : t('no') }}</p>", 'text "Yes"'],
      ['<x-chip [label]="\'Active\'" />', `[label]="'Active'" on <x-chip>`],
      ['@if (a) { <span>Shown</span> }', 'text "Shown"'],
    ])('should catch %s', (template, expected) => {
      expect(findVisibleLiterals(template, 'case.html')).toEqual([expected]);
    });

    it.each([
      "<p>{{ t('home.title') }}</p>",
      '<mat-icon>visibility_off</mat-icon>',
      "<button [attr.aria-label]=\"t(open ? 'a.b' : 'a.c')\"></button>",
      '<p [class.on]="mode === \'dark\'">{{ name }} · {{ count }}</p>',
      '<img src="x.svg" alt="" />',
    ])('should allow %s', (template) => {
      expect(findVisibleLiterals(template, 'case.html')).toEqual([]);
    });
  });
});
