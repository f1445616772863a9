import type { Column } from '../data-table';
import { whenColumn } from '../data-table-columns';

/** A place as the sharing evidence names it: "Berlin, Germany" in the active language. */
export function placeName(
  place: { city: string | null; country: string | null },
  language: string,
): string {
  let country = place.country ?? '';
  if (country) {
    try {
      country = new Intl.DisplayNames([language], { type: 'region' }).of(country) ?? country;
    } catch {
      // An unknown code stays as it is.
    }
  }
  return [place.city, country].filter(Boolean).join(', ');
}

/** What a stream's timeline columns read (an evidence session or a member's timeline entry). */
interface StreamTimes {
  itemName: string | null;
  startedAt: string;
  lastSeenAt: string;
}

/** The item and time columns every sharing timeline ends with. */
export function streamTimeColumns<T extends StreamTimes>(): Column<T>[] {
  return [
    { id: 'item', header: 'sharing.evidence.item', text: (s) => s.itemName ?? '' },
    whenColumn<T>('started', 'sharing.evidence.started', (s) => s.startedAt),
    whenColumn<T>('seen', 'sharing.evidence.lastSeen', (s) => s.lastSeenAt),
  ];
}
