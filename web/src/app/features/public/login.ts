import { ChangeDetectionStrategy, Component, input } from '@angular/core';
import { AuthPage } from './auth-page';
import { SignInForm } from './sign-in-form';

/** `/login?redirect=` (60-web.md §4.1). */
@Component({
  selector: 'app-login',
  imports: [AuthPage, SignInForm],
  template: `
    <app-auth-page [showSignIn]="false" narrow>
      <app-sign-in-form [redirect]="redirect()" [primaryHeading]="true" />
    </app-auth-page>
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class Login {
  /** Query param `redirect`, bound by the router. */
  readonly redirect = input<string | undefined>();
}
