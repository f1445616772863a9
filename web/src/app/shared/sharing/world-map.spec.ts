import { TestBed } from '@angular/core/testing';
import { TranslocoService } from '@jsverse/transloco';
import { provideTestApp } from '../../../testing/providers';
import { MAP, type MapPlace, WorldMap, project } from './world-map';
import { WORLD_LAND } from './world-land';

const BERLIN: MapPlace = { city: 'Berlin', country: 'DE', latitude: 52.52, longitude: 13.405 };
const SYDNEY: MapPlace = { city: 'Sydney', country: 'AU', latitude: -33.87, longitude: 151.21 };
const PARIS: MapPlace = { city: 'Paris', country: 'FR', latitude: 48.86, longitude: 2.35 };

function render(places: MapPlace[], travel = false, language = 'en') {
  TestBed.configureTestingModule({ providers: provideTestApp() });
  TestBed.inject(TranslocoService).setActiveLang(language);
  const fixture = TestBed.createComponent(WorldMap);
  fixture.componentRef.setInput('places', places);
  fixture.componentRef.setInput('travel', travel);
  fixture.detectChanges();
  const svg = (fixture.nativeElement as HTMLElement).querySelector('svg')!;
  return { svg, markers: [...svg.querySelectorAll('[data-testid="map-marker"]')] };
}

describe('WorldMap', () => {
  it('should project Berlin into northern Europe and Sydney into south-eastern Australia', () => {
    // Equirectangular, 2 units a degree, 180° W at x 0 and 84° N at y 0.
    expect(project(BERLIN.latitude, BERLIN.longitude)).toEqual({ x: 386.8, y: 63 });
    expect(project(SYDNEY.latitude, SYDNEY.longitude)).toEqual({ x: 662.4, y: 235.7 });
    // Berlin right of the prime meridian (x 360) and north of the equator (y 168); Sydney far
    // east and south of it.
    expect(project(0, 0)).toEqual({ x: 360, y: 168 });
    // Outside the frame: clamped to its edges.
    expect(project(-80, 200)).toEqual({ x: MAP.width, y: MAP.height });
  });

  it('should place both cities on the land of the bundled outline, and the oceans off it', () => {
    // The path's rings as absolute points ("M x y l dx dy dx dy … z"), and an even-odd ray cast.
    const rings = WORLD_LAND.split('M')
      .filter(Boolean)
      .map((ring) => {
        const numbers = ring.replace(/[lz]/g, ' ').match(/-?\d+/g)!.map(Number);
        const points = [[numbers[0]!, numbers[1]!]];
        for (let i = 2; i + 1 < numbers.length; i += 2) {
          const [x, y] = points.at(-1)!;
          points.push([x! + numbers[i]!, y! + numbers[i + 1]!]);
        }
        return points;
      });
    const onLand = (latitude: number, longitude: number) => {
      const { x, y } = project(latitude, longitude);
      let inside = false;
      for (const ring of rings) {
        for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
          const [xi, yi] = ring[i]!;
          const [xj, yj] = ring[j]!;
          if (yi! > y !== yj! > y && x < ((xj! - xi!) * (y - yi!)) / (yj! - yi!) + xi!) {
            inside = !inside;
          }
        }
      }
      return inside;
    };
    expect(onLand(BERLIN.latitude, BERLIN.longitude)).toBe(true);
    expect(onLand(SYDNEY.latitude, SYDNEY.longitude)).toBe(true);
    expect(onLand(-10, -140)).toBe(false); // the Pacific
    expect(onLand(30, -40)).toBe(false); // the Atlantic
    expect(onLand(66, 0)).toBe(false); // the Norwegian Sea, below Chukotka's longitude band
    expect(onLand(-16.5, 0)).toBe(false); // the South Atlantic, Fiji's latitude
    // A ring across the antimeridian is drawn as two, each clipped by the frame, never as one
    // band around the whole map.
    const widths = rings.map((ring) => {
      const xs = ring.map(([x]) => x!);
      return Math.max(...xs) - Math.min(...xs);
    });
    expect(Math.max(...widths)).toBeLessThan(MAP.width * 0.6);
  });

  it('should draw a marker per place where it projects, and no route without travel', () => {
    const { svg, markers } = render([BERLIN, PARIS, SYDNEY]);
    expect(markers).toHaveLength(3);
    expect(markers.map((m) => [m.getAttribute('cx'), m.getAttribute('cy')])).toEqual([
      ['386.8', '63'],
      ['364.7', '70.3'],
      ['662.4', '235.7'],
    ]);
    expect(markers.map((m) => m.textContent?.trim())).toEqual([
      'Berlin, Germany',
      'Paris, France',
      'Sydney, Australia',
    ]);
    expect(svg.querySelector('[data-testid="map-route"]')).toBeNull();
    expect(svg.querySelector('path.land')!.getAttribute('d')).toBe(WORLD_LAND);
    expect(svg.getAttribute('viewBox')).toBe('0 0 720 288');
  });

  it('should be an image named by its places', () => {
    const { svg } = render([BERLIN, SYDNEY]);
    expect(svg.getAttribute('role')).toBe('img');
    expect(svg.getAttribute('aria-label')).toBe(
      'World map of the places: Berlin, Germany; Sydney, Australia',
    );
  });

  it('should join the two places of a travel event with a line, named from and to', () => {
    const { svg, markers } = render([BERLIN, SYDNEY], true, 'zh-CN');
    expect(markers).toHaveLength(2);
    const route = svg.querySelector('[data-testid="map-route"]')!;
    expect(['x1', 'y1', 'x2', 'y2'].map((a) => route.getAttribute(a))).toEqual([
      '386.8',
      '63',
      '662.4',
      '235.7',
    ]);
    expect(svg.getAttribute('aria-label')).toBe(
      '移动世界地图：从 Berlin, 德国 到 Sydney, 澳大利亚',
    );
  });
});
