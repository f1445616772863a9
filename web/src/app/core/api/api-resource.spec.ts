import { HttpClient } from '@angular/common/http';
import { HttpTestingController } from '@angular/common/http/testing';
import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { firstValueFrom } from 'rxjs';
import { flushAndRender } from '../../../testing/dom';
import { provideTestApp } from '../../../testing/providers';
import { apiResource } from './api-resource';
import { abortWith } from './context';

/** A page whose read follows a search box, as the list pages' filters do. */
@Component({
  template: `{{ things.value() }}`,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
class Search {
  private readonly http = inject(HttpClient);
  readonly q = signal('a');
  readonly things = apiResource({
    params: () => this.q(),
    load: (q, abort) =>
      firstValueFrom(
        this.http.get<string>('/api/v1/things', { params: { q }, ...abortWith(abort) }),
      ),
  });
}

describe('apiResource', () => {
  let http: HttpTestingController;

  beforeEach(() => {
    TestBed.configureTestingModule({ providers: provideTestApp() });
    http = TestBed.inject(HttpTestingController);
  });
  afterEach(() => http.verify());

  it('should cancel the request of a read that newer params superseded', async () => {
    const fixture = TestBed.createComponent(Search);
    await fixture.whenStable();
    const first = http.expectOne('/api/v1/things?q=a');

    fixture.componentInstance.q.set('ab');
    await flushAndRender(fixture);

    expect(first.cancelled).toBe(true);
    const second = http.expectOne('/api/v1/things?q=ab');
    expect(second.cancelled).toBe(false);
    second.flush('found ab');
    await flushAndRender(fixture);
    expect(fixture.nativeElement.textContent).toContain('found ab');
    expect(fixture.componentInstance.things.error()).toBeNull();
  });

  it('should cancel the request of a read whose page is gone', async () => {
    const fixture = TestBed.createComponent(Search);
    await fixture.whenStable();
    const pending = http.expectOne('/api/v1/things?q=a');

    fixture.destroy();
    await new Promise((resolve) => setTimeout(resolve, 0));

    expect(pending.cancelled).toBe(true);
  });

  it('should leave a request without an abort signal alone', async () => {
    const client = TestBed.inject(HttpClient);
    const controller = new AbortController();
    const plain = firstValueFrom(client.get<string>('/api/v1/plain'));
    const tied = firstValueFrom(client.get<string>('/api/v1/tied', abortWith(controller.signal)));
    const settled = tied.catch((error: unknown) => error);

    controller.abort();
    const tiedRequest = http.expectOne('/api/v1/tied');
    const plainRequest = http.expectOne('/api/v1/plain');

    expect(tiedRequest.cancelled).toBe(true);
    expect(((await settled) as DOMException).name).toBe('AbortError');
    expect(plainRequest.cancelled).toBe(false);
    plainRequest.flush('still here');
    await expect(plain).resolves.toBe('still here');
  });
});
