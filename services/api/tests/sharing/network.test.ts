// Addresses, networks and places (docs/sharing.md): RemoteEndPoint forms, private = home, the
// IPv6 /64, the distance, and the shipped DB-IP database placing the test cities.
import { GeoLocator, originOf } from '../../src/modules/sharing/index.js';
import { distanceKm } from '../../src/modules/sharing/network.js';
import { BERLIN, BERLIN_2, SYDNEY } from './harness.js';

describe('sharing addresses', () => {
  it.each([
    ['85.214.132.117', '85.214.132.117', false],
    ['85.214.132.117:53012', '85.214.132.117', false],
    ['::ffff:85.214.132.117', '85.214.132.117', false],
    ['[2a01:4f8:c17:1a2b::10]:8096', '2a01:4f8:c17:1a2b::/64', false],
    ['2A01:04F8:0C17:1A2B:FFFF:1:2:3', '2a01:4f8:c17:1a2b::/64', false],
    ['2001:db8::1', '2001:db8:0:0::/64', false],
    ['192.168.1.10', 'home', true],
    ['10.1.2.3', 'home', true],
    ['172.20.0.5', 'home', true],
    ['127.0.0.1', 'home', true],
    ['100.64.1.1', 'home', true],
    ['::1', 'home', true],
    ['fd12:3456::1', 'home', true],
    ['fe80::1%eth0', 'home', true],
  ])('should read %s as network %s', (raw, network, home) => {
    expect(originOf(raw)).toMatchObject({ network, home });
  });

  it('should refuse what is not an address', () => {
    expect(originOf('')).toBeNull();
    expect(originOf(undefined)).toBeNull();
    expect(originOf('tv.local')).toBeNull();
  });

  it('should measure Berlin to Sydney at about 16 000 km', () => {
    const km = distanceKm(
      { latitude: 52.52, longitude: 13.4 },
      { latitude: -33.87, longitude: 151.21 },
    );
    expect(Math.round(km / 100)).toBe(161);
  });

  it('should place the test addresses from the shipped database and cache the answers', async () => {
    const geo = new GeoLocator();
    expect(await geo.locate(BERLIN)).toMatchObject({
      country: 'DE',
      city: expect.stringMatching(/^Berlin/),
    });
    expect(await geo.locate(BERLIN_2)).toMatchObject({
      country: 'DE',
      city: expect.stringMatching(/^Berlin/),
    });
    expect(await geo.locate(SYDNEY)).toMatchObject({ country: 'AU', city: 'Sydney' });
    expect(await geo.locate('2a01:4f8::1')).toMatchObject({ country: 'DE' });
    expect(geo.misses).toBe(4);
    await geo.locate(BERLIN);
    expect(geo.misses).toBe(4);
  });

  it('should open each family on its first look-up only', async () => {
    const opened: number[] = [];
    const geo = new GeoLocator(async (family) => {
      opened.push(family);
      return { get: () => ({ city: 'Testville', country_code: 'NZ', latitude: 1, longitude: 2 }) };
    });
    await geo.locate('8.8.8.8');
    await geo.locate('8.8.4.4');
    expect(opened).toEqual([4]);
    expect(await geo.locate('2001:4860::1')).toEqual({
      city: 'Testville',
      country: 'NZ',
      latitude: 1,
      longitude: 2,
    });
    expect(opened).toEqual([4, 6]);
  });
});
