// @ts-check
// electron-builder's afterPack hook: runs on the unpacked app, before signing.
import fuses from '@electron/fuses';

const { FuseV1Options, FuseVersion } = fuses;

/**
 * Electron's fuses in the packaged binary. The app is never a general
 * Node runtime (the CLI runs through `--cli`, not ELECTRON_RUN_AS_NODE),
 * takes no code from NODE_OPTIONS or an inspector, and runs only the checked
 * ASAR it was shipped with.
 */
export const FUSES = {
  version: FuseVersion.V1,
  [FuseV1Options.RunAsNode]: false,
  [FuseV1Options.EnableCookieEncryption]: true,
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  [FuseV1Options.EnableNodeCliInspectArguments]: false,
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
};

/** @param {import('app-builder-lib').AfterPackContext} context */
export default async function flipFuses(context) {
  // electron-builder finds the executable of each platform; the fuse values are ours.
  await context.packager.addElectronFuses(context, { ...FUSES, resetAdHocDarwinSignature: context.electronPlatformName === 'darwin' });
}
