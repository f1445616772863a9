import { ChangeDetectionStrategy, Component, signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { MatTab, MatTabGroup } from '@angular/material/tabs';
import { provideRouter, Router } from '@angular/router';
import { NO_MATERIAL_ANIMATIONS } from '../../testing/dom';
import { RoutedTabGroup, routedTabs } from './routed-tabs';

const TABS = ['renew', 'history', 'plans'] as const;

@Component({
  imports: [MatTabGroup, MatTab, RoutedTabGroup],
  template: `<mat-tab-group [appRoutedTabs]="tabs">
    @for (name of names; track name) {
      <mat-tab [label]="name"
        ><p>{{ name }} body</p></mat-tab
      >
    }
  </mat-tab-group>`,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
class Host {
  readonly names = TABS;
  readonly tab = signal<string | undefined>(undefined);
  readonly go = jest.fn();
  readonly tabs = routedTabs(TABS, this.tab, {
    aliases: { redeem: 'renew' },
    go: (name, index) => this.go(name, index),
  });
}

@Component({
  imports: [MatTabGroup, MatTab, RoutedTabGroup],
  template: `<mat-tab-group [appRoutedTabs]="tabs"
    ><mat-tab label="a" /><mat-tab label="b"
  /></mat-tab-group>`,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
class DefaultHost {
  readonly tab = signal<string | undefined>(undefined);
  readonly tabs = routedTabs(['a', 'b'] as const, this.tab);
}

function selectedLabel(root: HTMLElement): string | undefined {
  return root.querySelector('[role="tab"][aria-selected="true"]')?.textContent?.trim();
}

describe('routedTabs', () => {
  beforeEach(() => {
    TestBed.configureTestingModule({ providers: [provideRouter([]), NO_MATERIAL_ANIMATIONS] });
  });

  it('should open the tab the query param names, the first for a missing or unknown one, and an alias', () => {
    const host = TestBed.runInInjectionContext(() => new Host());
    expect([host.tabs.index(), host.tabs.name()]).toEqual([0, 'renew']);
    host.tab.set('history');
    expect([host.tabs.index(), host.tabs.name()]).toEqual([1, 'history']);
    host.tab.set('nonsense');
    expect(host.tabs.index()).toBe(0);
    host.tab.set('redeem');
    expect(host.tabs.name()).toBe('renew');
    host.tab.set('plans');
    expect(host.tabs.index()).toBe(2);
  });

  it('should drive the tab group: the selected tab follows the state and a click goes through select', async () => {
    const fixture = TestBed.createComponent(Host);
    const root = fixture.nativeElement as HTMLElement;
    fixture.componentInstance.tab.set('history');
    await fixture.whenStable();
    expect(selectedLabel(root)).toBe('history');
    // The tabs keep their width (what `mat-stretch-tabs="false"` did).
    expect(root.querySelector('mat-tab-group')!.classList).not.toContain(
      'mat-mdc-tab-group-stretch-tabs',
    );

    root.querySelectorAll<HTMLElement>('[role="tab"]')[2]!.click();
    await fixture.whenStable();
    expect(fixture.componentInstance.go).toHaveBeenCalledWith('plans', 2);
    // The click is not undone while the navigation is under way.
    expect(selectedLabel(root)).toBe('plans');

    fixture.componentInstance.tab.set(undefined);
    await fixture.whenStable();
    expect(selectedLabel(root)).toBe('renew');
  });

  it('should by default change the tab query param in place, other params kept', async () => {
    const router = TestBed.inject(Router);
    await router.navigateByUrl('/?page=2&tab=a');
    const fixture = TestBed.createComponent(DefaultHost);
    await fixture.whenStable();
    fixture.componentInstance.tabs.select(1);
    await fixture.whenStable();
    expect(router.url).toBe('/?page=2&tab=b');
  });
});
