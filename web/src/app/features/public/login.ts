import {
  ChangeDetectionStrategy,
  Component,
  booleanAttribute,
  effect,
  inject,
  input,
} from '@angular/core';
import { browserLocation, ssoStartUrl } from '../../core/session/sso';
import { SiteStore } from '../../core/site/site-store';
import { AuthPage } from './auth-page';
import { SignInForm } from './sign-in-form';

/**
 * `/login?redirect=&local=` (60-web.md §4.1). With single sign-on on auto-redirect the page
 * goes straight to the provider; `?local=1` stays here and shows the password form
 * (docs/sso.md: the break-glass for the bootstrap admin).
 */
@Component({
  selector: 'app-login',
  imports: [AuthPage, SignInForm],
  template: `
    <app-auth-page [showSignIn]="false" narrow wall>
      <app-sign-in-form [redirect]="redirect()" [primaryHeading]="true" [local]="local()" />
    </app-auth-page>
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class Login {
  /** Query param `redirect`, bound by the router. */
  readonly redirect = input<string | undefined>();
  /** Query param `local` (`1`): stay on the password form. */
  readonly local = input(false, { transform: (v: unknown) => v === '1' || booleanAttribute(v) });
  private readonly site = inject(SiteStore).site;

  constructor() {
    effect(() => {
      const sso = this.site().sso;
      if (sso.enabled && sso.autoRedirect && !this.local()) {
        browserLocation.assign(ssoStartUrl(this.redirect()));
      }
    });
  }
}
