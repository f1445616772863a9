import { ChangeDetectionStrategy, Component, input } from '@angular/core';
import { MatCard, MatCardContent } from '@angular/material/card';
import { PublicHeader } from '../../core/shell/public-header';
import { SignInForm } from './sign-in-form';

/** `/login?redirect=` (60-web.md §4.1). */
@Component({
  selector: 'app-login',
  imports: [MatCard, MatCardContent, PublicHeader, SignInForm],
  template: `
    <app-public-header [showSignIn]="false" />
    <main id="main" class="login-page">
      <mat-card appearance="outlined" class="card">
        <mat-card-content>
          <app-sign-in-form [redirect]="redirect()" [primaryHeading]="true" />
        </mat-card-content>
      </mat-card>
    </main>
  `,
  styles: `
    .login-page {
      display: flex;
      justify-content: center;
      padding: 24px 16px 48px;
    }
    .card {
      width: 100%;
      max-width: 420px;
      padding: 8px;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class Login {
  /** Query param `redirect`, bound by the router. */
  readonly redirect = input<string | undefined>();
}
