import { createHash, createPublicKey, verify } from 'node:crypto';
import { createReadStream, rmSync } from 'node:fs';
import { basename } from 'node:path';
import type { Logger } from 'pino';
import type { UpdateSettings } from '../../shared/kiosk-config.js';
import { compareVersions } from '../rules/fleet-state.js';
import type { Updater } from './update-schedule.js';

/** The signature of an update file lies next to it on the update server: `<file>.sig`. */
export const SIGNATURE_SUFFIX = '.sig';
/**
 * What is signed: this label, the release's version and the file's SHA-512
 * (hashed as it streams, not read into memory: an AppImage is 150 MB). The
 * version is signed so that an older signed build offered under a newer
 * version in the update metadata does not match: whoever controls the update
 * folder cannot roll PCs back. packaging/sign-update.mjs builds the same message.
 */
const MESSAGE_LABEL = 'store-server update v2\n';

const signedMessage = (version: string, digest: Buffer) => Buffer.concat([Buffer.from(`${MESSAGE_LABEL}version ${version}\n`), digest]);

export async function updateFileDigest(file: string): Promise<Buffer> {
  const hash = createHash('sha512');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest();
}

/** Whether `signature` (the base64 text of a `.sig` file) is the release key's Ed25519 signature of the file as release `version`. */
export async function isSignedUpdate(file: string, version: string, signature: string, publicKeyPem: string): Promise<boolean> {
  const bytes = Buffer.from(signature.trim(), 'base64');
  if (bytes.length !== 64) return false;
  return verify(null, signedMessage(version, await updateFileDigest(file)), createPublicKey(publicKeyPem), bytes);
}

/** electron-updater's updater as the signature check needs it: the files it downloaded and what it offered. */
export interface DownloadingUpdater extends Updater {
  checkForUpdates(): Promise<{ isUpdateAvailable: boolean; updateInfo: { version: string; files?: { url: string }[] } } | null>;
  downloadUpdate(): Promise<string[]>;
}

export class UpdateSignatureError extends Error {
  readonly code = 'ERR_UPDATE_SIGNATURE';
}

export interface SignatureCheck {
  settings: UpdateSettings;
  /** The running version: an offer of an older one is refused. */
  currentVersion: string;
  publicKey: string;
  logger: Logger;
  /** How the `.sig` file is fetched; Node's fetch in the app. */
  fetchText?: (url: string) => Promise<{ ok: boolean; status: number; text(): Promise<string> }>;
}

/**
 * Linux updates (the AppImage or the deb) carry no signature electron-updater
 * checks; its sha512 only proves the file matches the metadata next to it on
 * the same server. This wrapper checks each downloaded file against its
 * `<file>.sig` with the release key pinned in the app BEFORE anything installs:
 * a file without a signature, or with one that does not match, is deleted,
 * logged and reported as a failed download, and the running version stays.
 */
export function signedUpdates(updater: DownloadingUpdater, check: SignatureCheck): Updater {
  const fetchText = check.fetchText ?? ((url: string) => fetch(url));
  let offered: { url: string }[] = [];
  let offeredVersion = '';
  let verified: string | undefined;

  const signatureUrl = (file: string) => {
    const name = basename(file);
    const entry = offered.find((f) => decodeURIComponent(basename(new URL(f.url, check.settings.url).pathname)) === name);
    return new URL((entry?.url ?? encodeURIComponent(name)) + SIGNATURE_SUFFIX, check.settings.url).href;
  };

  const verifyFile = async (file: string): Promise<void> => {
    const url = signatureUrl(file);
    let signature: string | undefined;
    try {
      const answer = await fetchText(url);
      if (answer.ok) signature = await answer.text();
      else check.logger.warn({ url, status: answer.status }, 'the update has no signature on the update server');
    } catch (err) {
      check.logger.warn({ url, err }, 'the update\'s signature could not be fetched');
    }
    if (signature !== undefined && (await isSignedUpdate(file, offeredVersion, signature, check.publicKey))) return;
    rmSync(file, { force: true });
    // GET /update shows the error's text to anyone: the signature's address stays in the log.
    const why = signature === undefined ? 'no signature was found next to it' : `its signature does not match the release key for version ${offeredVersion}`;
    check.logger.error({ file: basename(file), url }, `refused the downloaded update: ${why}; it was deleted and this version keeps running`);
    throw new UpdateSignatureError(`The downloaded update ${basename(file)} was refused and deleted because ${why}.`);
  };

  return {
    async checkForUpdates() {
      const result = await updater.checkForUpdates();
      offered = result?.updateInfo.files ?? [];
      offeredVersion = result?.updateInfo.version ?? '';
      if (result?.isUpdateAvailable && compareVersions(offeredVersion, check.currentVersion) < 0) {
        offered = [];
        check.logger.error({ offered: offeredVersion, running: check.currentVersion }, 'refused an update to an older version');
        throw new UpdateSignatureError(
          `The update server offers version ${offeredVersion}, older than the running ${check.currentVersion}: it is refused, so an older build cannot roll this PC back.`,
        );
      }
      return result;
    },
    async downloadUpdate() {
      verified = undefined;
      const files = await updater.downloadUpdate();
      for (const file of files) await verifyFile(file);
      verified = files[0];
      return files;
    },
    quitAndInstall(isSilent, isForceRunAfter) {
      // Only a download checked above installs, never one electron-updater kept from before.
      if (verified === undefined) {
        check.logger.error('refused to install an update whose signature was not checked');
        return;
      }
      updater.quitAndInstall(isSilent, isForceRunAfter);
    },
    on: (event, listener) => updater.on(event, listener),
  };
}
