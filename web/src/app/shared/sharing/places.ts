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

/** A network as admins read it: `home` is translated by the caller. */
export function isHome(network: string): boolean {
  return network === 'home';
}
