import { createHash, createPublicKey, verify } from 'node:crypto';
import { createReadStream, rmSync } from 'node:fs';
import { basename } from 'node:path';
import type { Logger } from 'pino';
import type { UpdateSettings } from '../../shared/kiosk-config.js';
import type { Updater } from './update-schedule.js';

/** The signature of an update file lies next to it on the update server: `<file>.sig`. */
export const SIGNATURE_SUFFIX = '.sig';
/**
 * What is signed: this label and the file's SHA-512, so a 150 MB AppImage is
 * hashed as it streams instead of read into memory. packaging/sign-update.mjs
 * builds the same message.
 */
const MESSAGE_LABEL = 'store-server update v1\n';

export async function updateFileDigest(file: string): Promise<Buffer> {
  const hash = createHash('sha512');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest();
}

/** Whether `signature` (the base64 text of a `.sig` file) is the release key's Ed25519 signature of the file. */
export async function isSignedUpdate(file: string, signature: string, publicKeyPem: string): Promise<boolean> {
  const bytes = Buffer.from(signature.trim(), 'base64');
  if (bytes.length !== 64) return false;
  const message = Buffer.concat([Buffer.from(MESSAGE_LABEL), await updateFileDigest(file)]);
  return verify(null, message, createPublicKey(publicKeyPem), bytes);
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
    if (signature !== undefined && (await isSignedUpdate(file, signature, check.publicKey))) return;
    rmSync(file, { force: true });
    const why = signature === undefined ? `no signature was found at ${url}` : `its signature ${url} does not match the release key`;
    check.logger.error({ file: basename(file) }, `refused the downloaded update: ${why}; it was deleted and this version keeps running`);
    throw new UpdateSignatureError(`The downloaded update ${basename(file)} was refused and deleted because ${why}.`);
  };

  return {
    async checkForUpdates() {
      const result = await updater.checkForUpdates();
      offered = result?.updateInfo.files ?? [];
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
