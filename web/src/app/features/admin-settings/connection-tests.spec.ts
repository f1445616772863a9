import { HttpTestingController } from '@angular/common/http/testing';
import { TestBed } from '@angular/core/testing';
import { settle } from '../../../testing/fixtures';
import { provideTestApp } from '../../../testing/providers';
import { CONNECTION_TESTS_KEY, ConnectionTests, summarise } from '../../core/api/connection-tests';
import { SettingsEditor } from './settings-editor';
import { MEDIA_URL } from './settings-fixtures';

const PASSED = {
  ok: true,
  checks: [{ target: 'server', status: 'ok', message: 'Emby', latencyMs: 3 }],
};

/** The setup checklist's "last connection test" comes from tests of the saved settings. */
describe('ConnectionTests', () => {
  beforeEach(() => {
    localStorage.removeItem(CONNECTION_TESTS_KEY);
    TestBed.configureTestingModule({ providers: [...provideTestApp(), SettingsEditor] });
  });

  it('should sum a reply up by its worst check', () => {
    const at = new Date('2026-11-25T12:00:00.000Z');
    expect(summarise(PASSED as never, at)).toEqual({
      at: at.toISOString(),
      status: 'ok',
      message: null,
    });
    expect(
      summarise(
        {
          ok: false,
          checks: [
            { target: 'a', status: 'warn', message: 'meh', latencyMs: 1 },
            { target: 'b', status: 'fail', message: 'refused', latencyMs: 1 },
          ],
        },
        at,
      ),
    ).toEqual({ at: at.toISOString(), status: 'fail', message: 'refused' });
  });

  it('should remember a settings-page test of the saved settings, but not of a draft', async () => {
    const editor = TestBed.inject(SettingsEditor);
    const http = TestBed.inject(HttpTestingController);
    const tests = TestBed.inject(ConnectionTests);

    editor.edit(MEDIA_URL, 'http://draft.example:8096');
    void editor.test('media_server');
    await settle();
    const draft = http.expectOne('/api/v1/admin/settings/media_server/test');
    expect(draft.request.body.values).toBeDefined();
    draft.flush(PASSED);
    await settle();
    expect(tests.last().media_server).toBeUndefined();

    editor.discard('media_server');
    void editor.test('media_server');
    await settle();
    const saved = http.expectOne('/api/v1/admin/settings/media_server/test');
    expect(saved.request.body).toEqual({});
    saved.flush(PASSED);
    await settle();
    expect(tests.last().media_server?.status).toBe('ok');
    expect(JSON.parse(localStorage.getItem(CONNECTION_TESTS_KEY)!).media_server.status).toBe('ok');
  });
});
