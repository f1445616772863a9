import { ChangeDetectionStrategy, Component, signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { MatCardActions } from '@angular/material/card';
import { TitledCard } from './titled-card';

@Component({
  imports: [TitledCard, MatCardActions],
  template: `
    <app-titled-card data-testid="card" [title]="title()">
      <p class="body">the content</p>
      @if (withActions()) {
        <mat-card-actions><button type="button">Go</button></mat-card-actions>
      }
    </app-titled-card>
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
class Host {
  readonly title = signal('Profile');
  readonly withActions = signal(true);
}

describe('TitledCard', () => {
  async function render(withActions: boolean): Promise<HTMLElement> {
    const fixture = TestBed.createComponent(Host);
    fixture.componentInstance.withActions.set(withActions);
    await fixture.whenStable();
    return fixture.nativeElement as HTMLElement;
  }

  it('should show the title as the heading, the content inside the card content and the actions after it', async () => {
    const root = await render(true);

    const card = root.querySelector('[data-testid="card"] mat-card')!;
    expect(card.querySelector('mat-card-header h2')?.textContent).toBe('Profile');
    expect(card.querySelector('mat-card-content .body')?.textContent).toBe('the content');
    const actions = card.querySelector(':scope > mat-card-actions');
    expect(actions?.textContent).toContain('Go');
    expect(card.querySelector('mat-card-content mat-card-actions')).toBeNull();
  });

  it('should leave out the actions row when the caller has none', async () => {
    const root = await render(false);

    expect(root.querySelector('mat-card-actions')).toBeNull();
    expect(root.querySelector('mat-card-content .body')).not.toBeNull();
  });
});
