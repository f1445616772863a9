import type { Type } from '@angular/core';
import { DeferBlockBehavior, DeferBlockState, TestBed } from '@angular/core/testing';
import { provideTestApp } from '../../../testing/providers';
import { LanguageMenu } from './language-menu';
import { ThemeMenu } from './theme-menu';
import { DeferredMenuTrigger } from './deferred-menu-trigger';
import { MatMenu } from '@angular/material/menu';
import { Component } from '@angular/core';

/**
 * The top-bar menus load their code after the first render (issue 14) behind a stand-in button;
 * a click on the stand-in must still open the menu once the code is in.
 */
describe('deferred top-bar menus', () => {
  async function render<T>(component: Type<T>) {
    TestBed.configureTestingModule({
      providers: provideTestApp(),
      deferBlockBehavior: DeferBlockBehavior.Manual,
    });
    const fixture = TestBed.createComponent(component);
    await fixture.whenStable();
    const [block] = await fixture.getDeferBlocks();
    return { fixture, block: block!, root: fixture.nativeElement as HTMLElement };
  }

  const menuItems = () => document.querySelectorAll('[role="menuitemradio"]');

  afterEach(() => document.querySelector('.cdk-overlay-container')?.remove());

  it('should show a labelled stand-in button until the menu code is in', async () => {
    const { root } = await render(LanguageMenu);
    const button = root.querySelector<HTMLButtonElement>('[data-testid="language-menu"]')!;
    expect(button.getAttribute('aria-label')).toBe('Language');
    expect(button.getAttribute('aria-haspopup')).toBeNull();
    expect(menuItems()).toHaveLength(0);
  });

  it('should open the language menu once loaded when its stand-in was clicked', async () => {
    const { fixture, block, root } = await render(LanguageMenu);
    root.querySelector<HTMLButtonElement>('[data-testid="language-menu"]')!.click();
    await block.render(DeferBlockState.Complete);
    await fixture.whenStable();
    expect(root.querySelector('[data-testid="language-menu"]')!.getAttribute('aria-haspopup')).toBe(
      'menu',
    );
    expect(document.querySelector('[data-testid="language-zh-CN"]')).not.toBeNull();
  });

  it('should open the theme menu once loaded when its stand-in was clicked', async () => {
    const { fixture, block, root } = await render(ThemeMenu);
    root.querySelector<HTMLButtonElement>('[data-testid="theme-menu"]')!.click();
    await block.render(DeferBlockState.Complete);
    await fixture.whenStable();
    expect(document.querySelector('[data-testid="theme-dark"]')).not.toBeNull();
  });

  it('should show the stand-in as the same button the trigger then is (no layout shift)', async () => {
    const { fixture, block, root } = await render(ThemeMenu);
    const look = () => {
      const button = root.querySelector<HTMLButtonElement>('[data-testid="theme-menu"]')!;
      return {
        // The trigger's own marker class (`mat-mdc-menu-trigger`) styles nothing.
        classes: [...button.classList].filter((name) => name !== 'mat-mdc-menu-trigger'),
        label: button.getAttribute('aria-label'),
        icon: button.querySelector('mat-icon')!.getAttribute('data-mat-icon-name'),
        host: getComputedStyle(button.parentElement!).display,
      };
    };
    const standIn = look();
    await block.render(DeferBlockState.Complete);
    await fixture.whenStable();
    expect(look()).toEqual(standIn);
    expect(standIn).toEqual(
      expect.objectContaining({ label: 'Theme', icon: 'brightness_auto', host: 'contents' }),
    );
  });

  it('should leave the menu closed when it loaded without a click', async () => {
    const { fixture, block, root } = await render(ThemeMenu);
    await block.render(DeferBlockState.Complete);
    await fixture.whenStable();
    expect(root.querySelector('[data-testid="theme-menu"]')!.getAttribute('aria-haspopup')).toBe(
      'menu',
    );
    expect(menuItems()).toHaveLength(0);
  });

  it('should keep the real trigger out of sight until its name is bound (no unnamed button)', () => {
    @Component({
      imports: [DeferredMenuTrigger, MatMenu],
      template: `<app-deferred-menu-trigger [button]="button" [menu]="menu" /><mat-menu #menu />`,
    })
    class Host {
      readonly button = { label: 'Theme', icon: 'dark_mode', testId: 'theme-menu' };
    }
    TestBed.configureTestingModule({ providers: provideTestApp() });
    // A loaded @defer block's elements are in the page before their first change detection.
    const fixture = TestBed.createComponent(Host);
    const button = () => (fixture.nativeElement as HTMLElement).querySelector('button')!;
    expect(button().getAttribute('aria-label')).toBeNull();
    expect(getComputedStyle(button()).visibility).toBe('hidden');
    fixture.detectChanges();
    expect(button().getAttribute('aria-label')).toBe('Theme');
    expect(getComputedStyle(button()).visibility).toBe('visible');
  });
});
