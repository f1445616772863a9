// Contract test: the fake's paths and reply fields against the official OpenAPI descriptions in
// shared/data. Skips (saying so in its title) when shared/data is not beside the repository.
import type { FakeMediaServer } from '../../src/media-server/index.js';
import { routeTable } from '../../src/media-server/index.js';
import { adminHeaders, call, loginHeaders, start } from './helpers.js';
import { OpenApi, openApiFile } from './openapi.js';

type Flavour = 'emby' | 'jellyfin';

const FILES: Record<Flavour, string> = {
  emby: 'emby-openapi-4.8.11.json',
  jellyfin: 'jellyfin-openapi-12.0.0.json',
};

/** Documented by the plugin, not by either server's OpenAPI (see shared/data/README.md). */
const NOT_IN_SPEC = new Set(['/user_usage_stats/submit_custom_query']);

const ITEM_FIELDS = `Fields=${[
  'MediaStreams',
  'MediaSources',
  'ProviderIds',
  'Path',
  'ParentId',
  'DateCreated',
  'Overview',
  'SortName',
  'OriginalTitle',
].join(',')}`;

interface Op {
  name: string;
  method: 'GET' | 'POST';
  /** Template as the spec spells it (parameter names do not matter). */
  spec: string;
  path: (s: FakeMediaServer) => string;
  body?: unknown;
  login?: boolean;
  /** For operations whose spec reply has no schema (Emby's episodes list). */
  component?: string;
}

function ops(flavour: Flavour): Op[] {
  const seeded = (s: FakeMediaServer) => {
    if (!s.seeded) throw new Error('the contract test needs the seeded library');
    return s.seeded;
  };
  const common: Op[] = [
    {
      name: 'public system info',
      method: 'GET',
      spec: '/System/Info/Public',
      path: () => '/System/Info/Public',
    },
    { name: 'system info', method: 'GET', spec: '/System/Info', path: () => '/System/Info' },
    {
      name: 'authenticate',
      method: 'POST',
      spec: '/Users/AuthenticateByName',
      path: () => '/Users/AuthenticateByName',
      body: { Username: 'alice', Pw: 'alice-pass' },
      login: true,
    },
    {
      name: 'create user',
      method: 'POST',
      spec: '/Users/New',
      path: () => '/Users/New',
      body: { Name: 'contract-user' },
    },
    {
      name: 'get user',
      method: 'GET',
      spec: '/Users/{id}',
      path: (s) => `/Users/${seeded(s).users.bob?.id}`,
    },
    { name: 'sessions', method: 'GET', spec: '/Sessions', path: () => '/Sessions' },
    { name: 'devices', method: 'GET', spec: '/Devices', path: () => '/Devices' },
    { name: 'item counts', method: 'GET', spec: '/Items/Counts', path: () => '/Items/Counts' },
    {
      name: 'media folders',
      method: 'GET',
      spec: '/Library/MediaFolders',
      path: () => '/Library/MediaFolders?IsHidden=false',
    },
    {
      name: 'items with streams',
      method: 'GET',
      spec: '/Items',
      path: () =>
        `/Items?Recursive=true&IncludeItemTypes=Movie,Episode,Series,Season&${ITEM_FIELDS}`,
    },
    { name: 'top-level items', method: 'GET', spec: '/Items', path: () => '/Items' },
  ];
  const latestQuery = `Limit=20&IncludeItemTypes=Movie,Episode&${ITEM_FIELDS}&GroupItems=true`;
  const resumeQuery = `Limit=10&MediaTypes=Video&${ITEM_FIELDS}&EnableUserData=true`;
  if (flavour === 'emby') {
    return [
      ...common,
      { name: 'users query', method: 'GET', spec: '/Users/Query', path: () => '/Users/Query' },
      {
        name: 'latest items',
        method: 'GET',
        spec: '/Users/{UserId}/Items/Latest',
        path: (s) => `/Users/${seeded(s).users.alice?.id}/Items/Latest?${latestQuery}`,
      },
      {
        name: 'resume items',
        method: 'GET',
        spec: '/Users/{UserId}/Items/Resume',
        component: 'QueryResult_BaseItemDto',
        path: (s) => `/Users/${seeded(s).users.alice?.id}/Items/Resume?${resumeQuery}`,
      },
      {
        name: 'episodes',
        method: 'GET',
        spec: '/Shows/{Id}/Episodes',
        component: 'QueryResult_BaseItemDto',
        path: (s) => `/Shows/${seeded(s).series.bear.series.id}/Episodes?${ITEM_FIELDS}`,
      },
    ];
  }
  return [
    ...common,
    { name: 'users', method: 'GET', spec: '/Users', path: () => '/Users' },
    {
      name: 'latest items',
      method: 'GET',
      spec: '/Items/Latest',
      path: (s) => `/Items/Latest?userId=${seeded(s).users.alice?.id}&${latestQuery}`,
    },
    {
      name: 'resume items',
      method: 'GET',
      spec: '/UserItems/Resume',
      path: (s) => `/UserItems/Resume?userId=${seeded(s).users.alice?.id}&${resumeQuery}`,
    },
    {
      name: 'episodes (with virtual ones)',
      method: 'GET',
      spec: '/Shows/{id}/Episodes',
      path: (s) => `/Shows/${seeded(s).series.bear.series.id}/Episodes?${ITEM_FIELDS}`,
    },
  ];
}

for (const flavour of ['emby', 'jellyfin'] as const) {
  const file = openApiFile(FILES[flavour]);
  const title = file
    ? `contract: ${flavour} fake against ${FILES[flavour]}`
    : `contract: ${flavour} fake (skipped: ../shared/data/${FILES[flavour]} not found)`;

  (file ? describe : describe.skip)(title, () => {
    let server: FakeMediaServer;
    let spec: OpenApi;
    beforeAll(async () => {
      spec = new OpenApi(file as string);
      server = await start(flavour);
    });
    afterAll(async () => {
      await server.close();
    });

    it('should flag unknown fields, enum values and types (checker self-test)', () => {
      const page = flavour === 'emby' ? 'QueryResult_BaseItemDto' : 'BaseItemDtoQueryResult';
      const wrongHdrField = flavour === 'emby' ? 'VideoRangeType' : 'ExtendedVideoType';
      const bad = {
        Items: [{ Bogus: 1, Type: 'Film', MediaStreams: [{ [wrongHdrField]: 'x' }] }],
        TotalRecordCount: '1',
      };
      expect(spec.check(bad, spec.component(page))).toEqual([
        '$.Items[0].Bogus: not a field of the official schema',
        ...(flavour === 'jellyfin'
          ? ['$.Items[0].Type: "Film" is not one of the declared enum values']
          : []),
        `$.Items[0].MediaStreams[0].${wrongHdrField}: not a field of the official schema`,
        '$.TotalRecordCount: expected integer, got "1"',
      ]);
    });

    it('should only serve paths and methods the official spec documents', () => {
      const missing = routeTable(server.state)
        .filter((r) => !NOT_IN_SPEC.has(r.path))
        .filter((r) => !spec.operation(r.method, r.path))
        .map((r) => `${r.method} ${r.path}`);
      expect(missing).toEqual([]);
    });

    it.each(ops(flavour))(
      'should reply to "$name" with fields of the official schema',
      async (op) => {
        const headers = op.login ? loginHeaders(server, 'usher-contract') : adminHeaders(server);
        const res = await call(server, op.method, op.path(server), { headers, body: op.body });
        expect(res.status).toBe(200);
        const schema = op.component
          ? spec.component(op.component)
          : spec.responseSchema(op.method, op.spec);
        expect(schema).toBeDefined();
        expect(spec.check(res.json(), schema ?? {})).toEqual([]);
      },
    );

    it('should answer void writes with 204 where the spec documents success', async () => {
      const s = server.seeded;
      const writes: [string, string, string, unknown][] =
        flavour === 'emby'
          ? [
              [
                'POST',
                `/Users/${s?.users.carol?.id}/Password`,
                '/Users/{Id}/Password',
                { NewPw: 'x', ResetPassword: false },
              ],
              [
                'POST',
                `/Users/${s?.users.carol?.id}/Policy`,
                '/Users/{Id}/Policy',
                { IsDisabled: true },
              ],
              ['DELETE', '/Devices?Id=1', '/Devices', undefined],
              ['DELETE', `/Users/${s?.users.carol?.id}`, '/Users/{Id}', undefined],
            ]
          : [
              [
                'POST',
                `/Users/Password?userId=${s?.users.carol?.id}`,
                '/Users/Password',
                { CurrentPw: '', NewPw: 'x', ResetPassword: false },
              ],
              [
                'POST',
                `/Users/${s?.users.carol?.id}/Policy`,
                '/Users/{userId}/Policy',
                { IsDisabled: true, AuthenticationProviderId: 'a', PasswordResetProviderId: 'p' },
              ],
              ['DELETE', '/Devices?id=alice-kodi', '/Devices', undefined],
              ['DELETE', `/Users/${s?.users.carol?.id}`, '/Users/{userId}', undefined],
            ];
      for (const [method, path, template, body] of writes) {
        const res = await call(server, method, path, { headers: adminHeaders(server), body });
        expect({ path, status: res.status }).toEqual({ path, status: 204 });
        const documented = spec.responseStatuses(method, template);
        // Jellyfin documents 204 itself; Emby's spec says "200, empty response" for what
        // ServiceStack sends as 204 No Content.
        expect(documented).toContain(flavour === 'jellyfin' ? '204' : '200');
      }
    });

    it('should read request bodies by the field names the spec declares', () => {
      const bodies: [string, string, string[]][] = [
        ['POST', '/Users/AuthenticateByName', ['Username', 'Pw']],
        ['POST', '/Users/New', flavour === 'emby' ? ['Name'] : ['Name', 'Password']],
        flavour === 'emby'
          ? ['POST', '/Users/{Id}/Password', ['Id', 'NewPw', 'ResetPassword']]
          : ['POST', '/Users/Password', ['CurrentPw', 'NewPw', 'ResetPassword']],
      ];
      for (const [method, template, fields] of bodies) {
        const declared = spec.fieldNames(spec.requestSchema(method, template) ?? {});
        expect({ template, missing: fields.filter((f) => !declared.includes(f)) }).toEqual({
          template,
          missing: [],
        });
      }
    });

    it('should return the policy fields of the official UserPolicy', async () => {
      const res = await call(server, 'GET', `/Users/${server.seeded?.users.alice?.id}`, {
        headers: adminHeaders(server),
      });
      const policy = (res.json() as { Policy: Record<string, unknown> }).Policy;
      const declared = spec.fieldNames(spec.component('UserPolicy'));
      expect(Object.keys(policy).sort()).toEqual(declared.filter((f) => f in policy).sort());
      const required = [
        'IsDisabled',
        'IsAdministrator',
        'EnableAllFolders',
        'EnabledFolders',
        'AuthenticationProviderId',
      ];
      if (flavour === 'jellyfin') required.push('PasswordResetProviderId', 'MaxActiveSessions');
      else required.push('SimultaneousStreamLimit');
      expect(required.filter((f) => !(f in policy))).toEqual([]);
    });
  });
}
