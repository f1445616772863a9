// /System/Info/Public (anonymous) and /System/Info (needs a valid key): what `probe()` reads.
import { ok } from './http.js';
import type { Ctx, Reply, Route } from './http.js';

function localAddress(ctx: Ctx): string {
  const host = ctx.headers['host'];
  return `http://${typeof host === 'string' ? host : '127.0.0.1'}`;
}

/** Emby has no `ProductName`; Jellyfin sends "Jellyfin Server" (how probe() tells them apart). */
function publicInfo(ctx: Ctx): Record<string, unknown> {
  const { state } = ctx;
  if (state.flavour === 'emby') {
    return {
      LocalAddress: localAddress(ctx),
      LocalAddresses: [localAddress(ctx)],
      RemoteAddresses: [],
      ServerName: state.serverName,
      Version: state.version,
      Id: state.serverId,
    };
  }
  return {
    LocalAddress: localAddress(ctx),
    ServerName: state.serverName,
    Version: state.version,
    ProductName: 'Jellyfin Server',
    OperatingSystem: '',
    Id: state.serverId,
    StartupWizardCompleted: true,
  };
}

function systemInfo(ctx: Ctx): Reply {
  const common = {
    ...publicInfo(ctx),
    OperatingSystemDisplayName: 'Linux',
    HasPendingRestart: false,
    IsShuttingDown: false,
    SupportsLibraryMonitor: true,
    WebSocketPortNumber: 8096,
    CompletedInstallations: [],
    CanSelfRestart: true,
    CanLaunchWebBrowser: false,
    ProgramDataPath: '/config',
    ItemsByNamePath: '/config/metadata',
    CachePath: '/cache',
    LogPath: '/config/log',
    InternalMetadataPath: '/config/metadata',
    TranscodingTempPath: '/cache/transcodes',
    HasUpdateAvailable: false,
  };
  if (ctx.state.flavour === 'emby') {
    return ok({
      ...common,
      SystemUpdateLevel: 'Release',
      OperatingSystem: 'Linux',
      HttpServerPortNumber: 8096,
      SupportsHttps: false,
      HttpsPortNumber: 8920,
      CanSelfUpdate: false,
      SupportsAutoRunAtStartup: false,
      HardwareAccelerationRequiresPremiere: true,
      WakeOnLanInfo: [],
    });
  }
  return ok({
    ...common,
    PackageName: 'fake',
    WebPath: '/jellyfin/jellyfin-web',
    SystemArchitecture: 'X64',
  });
}

export const systemRoutes: Route[] = [
  { method: 'GET', path: '/System/Info/Public', auth: 'anon', handler: (c) => ok(publicInfo(c)) },
  { method: 'GET', path: '/System/Info', auth: 'user', handler: systemInfo },
  {
    method: 'GET',
    path: '/System/Ping',
    auth: 'anon',
    handler: (c) => ok(c.state.flavour === 'emby' ? 'Emby Server' : 'Jellyfin Server'),
  },
];
