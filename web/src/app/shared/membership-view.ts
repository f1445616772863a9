import type { MediaState } from '@usher/contracts';
import type { MembershipState } from '../core/session/membership';
import type { Tone } from './status-chip';

/** How each membership state looks (60-web.md §6.6 "membership"). Labels are keys. */
export const MEMBERSHIP_CHIPS: Record<MembershipState, { tone: Tone; icon: string; key: string }> =
  {
    active: { tone: 'success', icon: 'check_circle', key: 'membership.state.active' },
    expired: { tone: 'error', icon: 'event_busy', key: 'membership.state.expired' },
    no_expiry: { tone: 'neutral', icon: 'all_inclusive', key: 'membership.state.no_expiry' },
  };

/** How each media-link state looks (60-web.md §6.6 "media link"). */
export const MEDIA_CHIPS: Record<MediaState, { tone: Tone; icon: string; key: string }> = {
  enabled: { tone: 'success', icon: 'play_circle', key: 'membership.media.enabled' },
  disabled_expired: {
    tone: 'error',
    icon: 'pause_circle',
    key: 'membership.media.disabled_expired',
  },
  disabled_by_admin: { tone: 'warning', icon: 'block', key: 'membership.media.disabled_by_admin' },
  unlinked: { tone: 'neutral', icon: 'link_off', key: 'membership.media.unlinked' },
};
