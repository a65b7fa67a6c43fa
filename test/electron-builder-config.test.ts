import { Ajv } from 'ajv';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../main/version.js';

const schema = JSON.parse(readFileSync(join(PROJECT_ROOT, 'node_modules/app-builder-lib/scheme.json'), 'utf8'));
const config = parse(readFileSync(join(PROJECT_ROOT, 'electron-builder.yml'), 'utf8'));
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

describe('electron-builder.yml', () => {
  it('is valid against the schema of the installed electron-builder', () => {
    expect(validate(config), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });

  it.each([
    ['a misspelt key', { ...config, asarUnpacked: config.asarUnpack }],
    ['a wrong type', { ...config, nsis: { ...config.nsis, perMachine: 'yes' } }],
  ])('the check catches %s', (_, broken) => {
    expect(validate(broken)).toBe(false);
  });

  it('builds a per-machine NSIS installer, an AppImage and a deb', () => {
    expect(config.win.target).toBe('nsis');
    expect(config.nsis).toMatchObject({ oneClick: false, perMachine: true, deleteAppDataOnUninstall: false });
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.executableName).toBe('store-server');
  });

  it('unpacks the native modules, rebuilds them for Electron and flips the fuses after packing', () => {
    expect(config.asarUnpack).toEqual(expect.arrayContaining(['node_modules/better-sqlite3/**', 'node_modules/sharp/**', 'node_modules/@img/**']));
    expect(config.npmRebuild).toBe(true);
    expect(existsSync(join(PROJECT_ROOT, config.afterPack))).toBe(true);
  });

  it('names the Windows publisher whose Authenticode signature electron-updater requires of an update', () => {
    expect(config.win.verifyUpdateCodeSignature).toBe(true);
    expect(config.win.signtoolOptions.publisherName).toEqual([expect.stringMatching(/\S/)]);
  });

  it('writes update metadata for electron-updater\'s generic provider', () => {
    expect(config.publish).toMatchObject({ provider: 'generic' });
    const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8'));
    expect(pkg.dependencies).toHaveProperty('electron-updater');
  });

  it('takes the product name from package.json, which also names the data folder', () => {
    const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8'));
    expect(pkg.productName).toBe('Store Server');
    expect(pkg.main).toBe('dist/main/electron.js');
    expect(pkg.dependencies).not.toHaveProperty('tsx');
  });
});
