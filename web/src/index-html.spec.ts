import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * index.html paints a splash inside <app-root> (issue 14): with a slow API the first render waits
 * for the language file, /public/site and /me, and the page must not stay blank meanwhile.
 */
describe('index.html splash', () => {
  const html = readFileSync(join(__dirname, 'index.html'), 'utf8');
  const doc = new DOMParser().parseFromString(html, 'text/html');

  it('should show a labelled status with the brand inside app-root before Angular starts', () => {
    const splash = doc.querySelector('app-root [data-testid="splash"]');
    expect(splash).not.toBeNull();
    expect(splash!.getAttribute('role')).toBe('status');
    expect(splash!.getAttribute('aria-label')).toContain('Loading');
    expect(splash!.textContent).toContain('Usher');
    expect(doc.querySelector('style')!.textContent).toContain('.usher-splash');
  });

  it('should need no inline script (the CSP allows only self-hosted scripts)', () => {
    for (const script of Array.from(doc.querySelectorAll('script'))) {
      expect(script.getAttribute('src')).toBeTruthy();
      expect(script.textContent!.trim()).toBe('');
    }
  });
});
