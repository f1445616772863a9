import { ChangeDetectionStrategy, Component } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { NO_MATERIAL_ANIMATIONS } from '../../testing/dom';
import { provideTestI18n } from '../../testing/providers';
import { type RowAction, RowMenu } from './row-menu';

@Component({
  imports: [RowMenu],
  template: `<app-row-menu [label]="label" [actions]="actions" testId="row-bob" />`,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
class Host {
  readonly label = 'Actions for bob';
  readonly edit = jest.fn();
  readonly remove = jest.fn();
  readonly actions: RowAction[] = [
    { icon: 'edit', label: 'adminUsers.edit', run: this.edit },
    { icon: 'delete', label: 'adminUsers.delete', testId: 'action-delete', run: this.remove },
  ];
}

describe('RowMenu', () => {
  it('should list the row actions behind a labelled button and run the one picked', async () => {
    TestBed.configureTestingModule({ providers: [...provideTestI18n(), NO_MATERIAL_ANIMATIONS] });
    const fixture = TestBed.createComponent(Host);
    await fixture.whenStable();
    const trigger = (fixture.nativeElement as HTMLElement).querySelector<HTMLButtonElement>(
      '[data-testid="row-bob"]',
    )!;
    expect(trigger.getAttribute('aria-label')).toBe('Actions for bob');
    expect(document.querySelector('[mat-menu-item]')).toBeNull();

    trigger.click();
    await fixture.whenStable();
    const items = [...document.querySelectorAll<HTMLButtonElement>('[mat-menu-item]')];
    expect(
      items.map((item) => [
        item.querySelector('mat-icon')!.getAttribute('data-mat-icon-name'),
        item.textContent!.replace(/\s+/g, ' ').trim(),
      ]),
    ).toEqual([
      ['edit', 'Edit'],
      ['delete', 'Delete'],
    ]);
    document.querySelector<HTMLButtonElement>('[data-testid="action-delete"]')!.click();
    expect(fixture.componentInstance.remove).toHaveBeenCalledTimes(1);
    expect(fixture.componentInstance.edit).not.toHaveBeenCalled();
  });
});
