import { ChangeDetectionStrategy, Component } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { NO_MATERIAL_ANIMATIONS } from '../../testing/dom';
import { ExpandToggle, RowExpansion } from './row-expansion';

interface Row {
  readonly id: string;
}

@Component({
  imports: [ExpandToggle],
  template: `@for (row of rows; track row.id) {
    <app-expand-toggle
      [expansion]="expansion"
      [row]="row"
      [label]="'Show ' + row.id"
      [testId]="'toggle-' + row.id"
    />
  }`,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
class Host {
  readonly rows: Row[] = [{ id: 'a' }, { id: 'b' }];
  readonly expansion = new RowExpansion<Row>();
}

describe('RowExpansion', () => {
  it('should keep one row open at a time, a second click closing it', () => {
    const expansion = new RowExpansion<Row>();
    const [a, b] = [{ id: 'a' }, { id: 'b' }];
    expansion.toggle(a);
    expect([expansion.isOpen(a), expansion.isOpen(b)]).toEqual([true, false]);
    expansion.toggle(b);
    expect([expansion.isOpen(a), expansion.isOpen(b)]).toEqual([false, true]);
    expect(expansion.openIn([a, b])).toBe(b);
    expect(expansion.openIn([a])).toBeUndefined();
    expansion.toggle(b);
    expect(expansion.open()).toBeNull();
  });

  it('should show a named toggle per row that says whether its row is open', async () => {
    TestBed.configureTestingModule({ providers: [NO_MATERIAL_ANIMATIONS] });
    const fixture = TestBed.createComponent(Host);
    await fixture.whenStable();
    const root = fixture.nativeElement as HTMLElement;
    const button = (id: string) =>
      root.querySelector<HTMLButtonElement>(`[data-testid="toggle-${id}"]`)!;
    const state = () =>
      ['a', 'b'].map((id) => [
        button(id).getAttribute('aria-expanded'),
        button(id).querySelector('mat-icon')!.getAttribute('data-mat-icon-name'),
      ]);
    expect(button('a').getAttribute('aria-label')).toBe('Show a');
    expect(state()).toEqual([
      ['false', 'expand_more'],
      ['false', 'expand_more'],
    ]);
    button('b').click();
    await fixture.whenStable();
    expect(state()).toEqual([
      ['false', 'expand_more'],
      ['true', 'expand_less'],
    ]);
    button('b').click();
    await fixture.whenStable();
    expect(fixture.componentInstance.expansion.open()).toBeNull();
  });
});
