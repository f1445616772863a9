import { HttpTestingController } from '@angular/common/http/testing';
import { TestBed } from '@angular/core/testing';
import { refusal } from '../../../testing/fixtures';
import { byTestId, clickOn, flushAndRender } from '../../../testing/dom';
import { provideTestApp } from '../../../testing/providers';
import Unsubscribe from './unsubscribe';

// The first render compiles Material and the page; slow on a shared 2-core CI machine.
jest.setTimeout(20_000);
describe('Unsubscribe', () => {
  let http: HttpTestingController;

  beforeEach(() => {
    TestBed.configureTestingModule({ providers: provideTestApp() });
    http = TestBed.inject(HttpTestingController);
  });
  afterEach(() => http.verify());

  async function render(token: string | undefined) {
    const fixture = TestBed.createComponent(Unsubscribe);
    fixture.componentRef.setInput('token', token);
    await fixture.whenStable();
    return { fixture, root: fixture.nativeElement as HTMLElement };
  }

  it('should change nothing on opening, and stop the mails when confirmed', async () => {
    const token = '01900000-0000-7000-8000-000000000001.email.abcdefghijklmnop';
    const { fixture, root } = await render(token);
    http.expectNone(() => true);
    await clickOn(fixture, root, 'unsubscribe-submit');
    const post = http.expectOne(
      (r) => r.method === 'POST' && r.urlWithParams === `/api/v1/public/unsubscribe?token=${token}`,
    );
    post.flush({ channel: 'email', subscribed: false });
    await flushAndRender(fixture);
    expect(byTestId(root, 'unsubscribe-done')!.textContent).toContain(
      'You will no longer receive reminder e-mails',
    );
  });

  it('should explain a link that is not valid', async () => {
    const { fixture, root } = await render('01900000.email.forged-mac-value');
    await clickOn(fixture, root, 'unsubscribe-submit');
    http
      .expectOne((r) => r.url === '/api/v1/public/unsubscribe')
      .flush(...refusal(400, 'UNSUBSCRIBE_LINK_INVALID', 'x'));
    await flushAndRender(fixture);
    expect(byTestId(root, 'unsubscribe-error')!.textContent).toContain(
      'This unsubscribe link is not valid',
    );
    expect(byTestId(root, 'unsubscribe-done')).toBeNull();
  });

  it('should point to the account page without a token', async () => {
    const { root } = await render(undefined);
    expect(byTestId(root, 'unsubscribe-missing')).not.toBeNull();
    expect(byTestId(root, 'unsubscribe-submit')).toBeNull();
  });
});
