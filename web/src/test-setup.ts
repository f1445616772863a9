// First: it loads the JIT compiler that Angular Material's partially compiled classes need.
import { setupZonelessTestEnv } from 'jest-preset-angular/setup-env/zoneless';
import { MatIconRegistry } from '@angular/material/icon';
import type { DomSanitizer } from '@angular/platform-browser';
import { registerIcons } from './app/core/icons/icons';

setupZonelessTestEnv();

// The app registers its SVG icons at startup (app.config.ts); a component under test gets them
// the first time it asks, so an unknown name still fails as it would in the app.
const registered = new WeakSet<MatIconRegistry>();
const getNamedSvgIcon = MatIconRegistry.prototype.getNamedSvgIcon;
MatIconRegistry.prototype.getNamedSvgIcon = function (this: MatIconRegistry, ...args) {
  if (!registered.has(this)) {
    registered.add(this);
    registerIcons(this, (this as unknown as { _sanitizer: DomSanitizer })._sanitizer);
  }
  return getNamedSvgIcon.apply(this, args);
};

// jsdom has no matchMedia; the layout code asks it for breakpoints and color schemes.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  }),
});

afterEach(() => localStorage.clear());
