import { TestBed } from '@angular/core/testing';
import { THEME_KEY, ThemeSwitch } from './theme';

describe('ThemeSwitch', () => {
  const root = document.documentElement;

  it('should follow the system by default', () => {
    TestBed.inject(ThemeSwitch);
    expect(root.dataset['theme']).toBe('system');
    expect(root.style.colorScheme).toBe('light dark');
  });

  it('should apply and remember an explicit choice', () => {
    TestBed.inject(ThemeSwitch).use('dark');
    expect(root.dataset['theme']).toBe('dark');
    expect(root.style.colorScheme).toBe('dark');
    expect(localStorage.getItem(THEME_KEY)).toBe('dark');
  });

  it('should start from the remembered choice', () => {
    localStorage.setItem(THEME_KEY, 'light');
    expect(TestBed.inject(ThemeSwitch).mode()).toBe('light');
    expect(root.style.colorScheme).toBe('light');
  });

  it('should leave <html> untouched when boot.js already applied the mode', async () => {
    root.dataset['theme'] = 'system';
    root.style.colorScheme = 'light dark';
    const changes: string[] = [];
    const observer = new MutationObserver((records) =>
      changes.push(...records.map((r) => r.attributeName ?? '')),
    );
    observer.observe(root, { attributes: true });
    TestBed.inject(ThemeSwitch);
    await Promise.resolve();
    observer.disconnect();
    expect(changes).toEqual([]);
  });
});
