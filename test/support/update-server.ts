import { configureRequestOptions, configureRequestUrl, HttpExecutor, type DownloadOptions } from 'builder-util-runtime';
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, request, type ClientRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DebUpdater } from 'electron-updater';
import type { AppAdapter } from 'electron-updater/out/AppAdapter.js';
import type { UpdateSettings } from '../../shared/kiosk-config.js';

export interface Release {
  version: string;
  /** electron-updater's staged rollout: the share of PCs (0-100) that see this release. */
  stagingPercentage?: number;
  /** Serve other bytes than the metadata's sha512 describes (a damaged or tampered download). */
  damaged?: boolean;
  /** The installer's bytes; random unless given. */
  installer?: Buffer;
  /** The text of `<installer>.sig` next to the installer; none unless given. */
  signature?: string;
}

/**
 * An organization's generic update server, as electron-builder's output
 * uploaded to any web server makes it: `latest-linux.yml` (and `latest.yml`)
 * naming the installer with its sha512, and the installer itself.
 */
export async function startUpdateServer(release: Release) {
  const installer = release.installer ?? randomBytes(64 * 1024);
  const file = `store-server_${release.version}_amd64.deb`;
  const sha512 = createHash('sha512').update(installer).digest('base64');
  const metadata = [
    `version: ${release.version}`,
    'files:',
    `  - url: ${file}`,
    `    sha512: ${sha512}`,
    `    size: ${installer.length}`,
    `path: ${file}`,
    `sha512: ${sha512}`,
    "releaseDate: '2026-11-20T10:00:00.000Z'",
    ...(release.stagingPercentage === undefined ? [] : [`stagingPercentage: ${release.stagingPercentage}`]),
  ].join('\n');
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    requests.push(path);
    if (path === '/latest-linux.yml' || path === '/latest.yml') {
      res.writeHead(200, { 'content-type': 'text/yaml' }).end(metadata);
    } else if (path === `/${file}.sig` && release.signature !== undefined) {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(release.signature);
    } else if (path === `/${file}`) {
      const body = release.damaged ? randomBytes(installer.length) : installer;
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length }).end(body);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** electron-updater's HTTP client is Electron's `net`; outside Electron the same requests go through Node's http. */
class NodeHttpExecutor extends HttpExecutor<ClientRequest> {
  createRequest(options: object, callback: (response: unknown) => void): ClientRequest {
    return request(options, callback);
  }

  /** What electron-updater's own client adds to the base: a download to a file (the digest check is the base's). */
  download(url: URL, destination: string, options: DownloadOptions): Promise<string> {
    return options.cancellationToken.createPromise((resolve, reject, onCancel) => {
      const requestOptions = { headers: options.headers ?? undefined };
      configureRequestUrl(url, requestOptions);
      configureRequestOptions(requestOptions);
      const callback = (error: Error | null) => (error ? reject(error) : resolve(destination));
      this.doDownload(requestOptions, { destination, options, onCancel, callback, responseHandler: null }, 0);
    });
  }
}

/**
 * The real electron-updater (its deb updater, as a store PC installed from
 * the deb runs it) in a packaged app's surroundings: checks, staged rollout,
 * download and sha512 verification are electron-updater's own. Only the last
 * step is the test's: instead of running dpkg and restarting, `quitAndInstall`
 * records the call, or fails as an installer that will not start does.
 */
export class InstallRecordingUpdater extends DebUpdater {
  readonly installs: { silent: boolean; runAfter: boolean; file: string | null }[] = [];
  failInstall = false;

  constructor(settings: UpdateSettings, userData: string) {
    // As electron-builder writes it into the packaged app's resources.
    const appUpdateConfigPath = join(userData, 'app-update.yml');
    writeFileSync(appUpdateConfigPath, `provider: generic\nurl: ${settings.url}\nupdaterCacheDirName: store-server-updater\n`);
    const app: AppAdapter = {
      version: '0.1.0',
      name: 'Store Server',
      isPackaged: true,
      appUpdateConfigPath,
      userDataPath: userData,
      baseCachePath: join(userData, 'cache'),
      whenReady: () => Promise.resolve(),
      relaunch: () => {},
      quit: () => {},
      onQuit: () => {},
    };
    super(null, app);
    // Before the feed: the provider takes the HTTP client it finds then.
    (this as unknown as { httpExecutor: HttpExecutor<ClientRequest> }).httpExecutor = new NodeHttpExecutor();
    this.setFeedURL({ provider: 'generic', url: settings.url });
    this.logger = null;
    this.autoDownload = false;
    this.autoInstallOnAppQuit = false;
  }

  override quitAndInstall(isSilent = false, isForceRunAfter = false): void {
    if (this.failInstall) {
      this.emit('error', new Error('the installer could not be started'));
      return;
    }
    this.installs.push({ silent: isSilent, runAfter: isForceRunAfter, file: this.installerPath });
  }
}
