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

  // Issue 36: the language and theme menus load on hover, so a first click can land while the
  // stand-in is being swapped for the real trigger. In CI such a click once opened nothing (the
  // hover-loaded menus were reverted for it); these reproduce that race with the loader held.
  const hoverLoaded: [string, Type<unknown>, string, string][] = [
    ['language', LanguageMenu, 'language-menu', 'language-zh-CN'],
    ['theme', ThemeMenu, 'theme-menu', 'theme-dark'],
  ];
  for (const [name, component, testId, item] of hoverLoaded) {
    it(`should load the ${name} menu's code only when the pointer or focus comes to it`, async () => {
      TestBed.configureTestingModule({
        providers: provideTestApp(),
        deferBlockBehavior: DeferBlockBehavior.Playthrough,
      });
      const fixture = TestBed.createComponent(component);
      await fixture.whenStable();
      // Not once the page is idle: a first visit to /login must not fetch the menu code.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await fixture.whenStable();
      const root = fixture.nativeElement as HTMLElement;
      const button = () => root.querySelector<HTMLButtonElement>(`[data-testid="${testId}"]`)!;
      expect(button().getAttribute('aria-haspopup')).toBeNull();
      button().dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
      await new Promise((resolve) => setTimeout(resolve, 50));
      await fixture.whenStable();
      expect(button().getAttribute('aria-haspopup')).toBe('menu');
      expect(menuItems()).toHaveLength(0);
    });

    it(`should open the ${name} menu when the click's release lands after the swap`, async () => {
      const { fixture, block, root } = await render(component);
      // Pressed on the stand-in; the code arrives; released on the trigger: the browser clicks
      // the common ancestor, the menu's host, not either button.
      root
        .querySelector(`[data-testid="${testId}"]`)!
        .dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
      await block.render(DeferBlockState.Complete);
      root.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      await fixture.whenStable();
      expect(document.querySelector(`[data-testid="${item}"]`)).not.toBeNull();
    });

    it(`should open the ${name} menu when the press began on the stand-in and no click follows`, async () => {
      const { fixture, block, root } = await render(component);
      // The pressed button is gone by the release: the browser may then fire no click at all.
      root
        .querySelector(`[data-testid="${testId}"]`)!
        .dispatchEvent(new MouseEvent('pointerdown', { bubbles: true }));
      await block.render(DeferBlockState.Complete);
      root
        .querySelector(`[data-testid="${testId}"]`)!
        .dispatchEvent(new MouseEvent('pointerup', { bubbles: true }));
      await fixture.whenStable();
      expect(document.querySelector(`[data-testid="${item}"]`)).not.toBeNull();
    });

    it(`should open the ${name} menu when the click lands on the host while the code loads`, async () => {
      const { fixture, block, root } = await render(component);
      // The pointer is over the button's place while neither button takes it (the trigger is
      // still hidden, unbound): the click reaches the host. The loader is held until after it.
      root.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      await fixture.whenStable();
      expect(menuItems()).toHaveLength(0);
      await block.render(DeferBlockState.Complete);
      await fixture.whenStable();
      expect(document.querySelector(`[data-testid="${item}"]`)).not.toBeNull();
    });

    it(`should let the loaded ${name} trigger open and close its menu itself`, async () => {
      const { fixture, block, root } = await render(component);
      await block.render(DeferBlockState.Complete);
      await fixture.whenStable();
      const trigger = root.querySelector<HTMLButtonElement>(`[data-testid="${testId}"]`)!;
      const press = () => {
        trigger.dispatchEvent(new MouseEvent('pointerdown', { bubbles: true }));
        trigger.dispatchEvent(new MouseEvent('pointerup', { bubbles: true }));
        trigger.click();
      };
      press();
      await fixture.whenStable();
      expect(menuItems().length).toBeGreaterThan(0);
      // A second press closes it; the host must not open it again.
      press();
      await fixture.whenStable();
      await new Promise((resolve) => setTimeout(resolve, 200));
      await fixture.whenStable();
      expect(trigger.getAttribute('aria-expanded')).toBe('false');
    });
  }

  it('should give the hover-loaded menus a host the size of their button', async () => {
    const { root } = await render(LanguageMenu);
    // Where a click lands while the buttons swap: a box, not `display: contents` or inline.
    expect(root.style.display).toBe('inline-flex');
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
