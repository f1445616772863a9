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
});
