import {
  ChangeDetectorRef,
  DestroyRef,
  Directive,
  type DoCheck,
  computed,
  effect,
  inject,
  input,
  type Signal,
} from '@angular/core';
import { MatTabGroup } from '@angular/material/tabs';
import { Router } from '@angular/router';

/** The tabs of a page whose open tab lives in the query param `?tab=`. */
export interface RoutedTabs<T extends string> {
  /** The open tab's index; an unknown or missing `?tab=` opens the first. */
  readonly index: Signal<number>;
  /** The open tab's name. */
  readonly name: Signal<T>;
  /** What choosing the tab at `index` does (the tab group calls it). */
  select(index: number): void;
}

export interface RoutedTabsOptions<T extends string> {
  /** Old `?tab=` values that still open a tab (old links keep working). */
  aliases?: Readonly<Record<string, T>>;
  /**
   * How choosing a tab navigates. By default the `tab` query param changes in place (other
   * params kept, no new history entry).
   */
  go?: (name: T, index: number) => void;
}

/**
 * The state of a routed tab group (devices, redeem codes, lifecycle, user detail, playback,
 * renewal): the open tab from the `tab` input and what choosing one does. Call it in a field
 * initializer (it injects the router); bind it with `<mat-tab-group [appRoutedTabs]="tabs">`.
 */
export function routedTabs<const T extends string>(
  names: readonly T[],
  tab: () => string | undefined,
  options: RoutedTabsOptions<T> = {},
): RoutedTabs<T> {
  const router = inject(Router);
  const index = computed(() => {
    const value = tab() ?? names[0]!;
    return Math.max(0, names.indexOf(options.aliases?.[value] ?? (value as T)));
  });
  const go =
    options.go ??
    ((name: T) =>
      void router.navigate([], {
        queryParams: { tab: name },
        queryParamsHandling: 'merge',
        replaceUrl: true,
      }));
  return {
    index,
    name: computed(() => names[index()]!),
    select: (i: number) => go(names[i]!, i),
  };
}

/**
 * Drives a `mat-tab-group` from {@link routedTabs}: the selected tab follows the state (set only
 * when the state changes, as an input binding would, so a click is not undone before the
 * navigation lands), a chosen tab goes through `select`, and the tabs keep their width.
 */
@Directive({ selector: 'mat-tab-group[appRoutedTabs]' })
export class RoutedTabGroup implements DoCheck {
  readonly appRoutedTabs = input.required<RoutedTabs<string>>();
  private readonly group = inject(MatTabGroup);
  private shown: number | null = null;

  constructor() {
    this.group.stretchTabs = false;
    const sub = this.group.selectedIndexChange.subscribe((i: number) =>
      this.appRoutedTabs().select(i),
    );
    inject(DestroyRef).onDestroy(() => sub.unsubscribe());
    // A state that changes without the page being checked (its inputs unchanged) still shows.
    const changes = inject(ChangeDetectorRef);
    effect(() => {
      this.appRoutedTabs().index();
      changes.markForCheck();
    });
  }

  ngDoCheck(): void {
    const index = this.appRoutedTabs().index();
    if (index !== this.shown) {
      this.shown = index;
      this.group.selectedIndex = index;
    }
  }
}
