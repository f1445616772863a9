import { ChangeDetectionStrategy, Component, inject } from '@angular/core';
import { MatCard, MatCardContent } from '@angular/material/card';
import { MatIcon } from '@angular/material/icon';
import { MatButton } from '@angular/material/button';
import { RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import { PublicHeader } from '../../core/shell/public-header';
import { SiteStore } from '../../core/site/site-store';
import { SignInForm } from './sign-in-form';

/** The three things the community offers a member (60-web.md §4.1 "three feature cards"). */
const FEATURES = [
  { key: 'signUp', icon: 'person_add' },
  { key: 'requests', icon: 'movie' },
  { key: 'renewal', icon: 'autorenew' },
] as const;

/** Landing page `/`: what the community offers, the sign-in card and the way to join. */
@Component({
  selector: 'app-home',
  imports: [
    MatButton,
    MatCard,
    MatCardContent,
    MatIcon,
    RouterLink,
    TranslocoDirective,
    PublicHeader,
    SignInForm,
  ],
  templateUrl: './home.html',
  styleUrl: './home.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class Home {
  protected readonly site = inject(SiteStore).site;
  protected readonly features = FEATURES;
}
