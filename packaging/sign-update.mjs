// @ts-check
// Detached Ed25519 signatures of the Linux update files (docs/desktop.md, "Signing a release"):
//   node packaging/sign-update.mjs keygen <private-key-file>   writes a new private key, prints its public key
//   node packaging/sign-update.mjs sign [--version <v>] <file>...
//                                                             writes <file>.sig; the private key (PEM) comes from UPDATE_SIGNING_KEY
//   node packaging/sign-update.mjs verify [--version <v>] [--public-key <pem>] <file>...
//                                                             checks each <file>.sig; by default against the key pinned in the app
// The signature covers the release's version (default: package.json's, which the release is built from),
// so an older signed build cannot be offered as a newer one.
// The app checks the same signature (main/electron/update-signature.ts) before it installs an update.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import { createReadStream, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The same label as MESSAGE_LABEL in main/electron/update-signature.ts. */
const MESSAGE_LABEL = 'store-server update v2\n';

/**
 * @param {string} file
 * @param {string} version
 */
async function message(file, version) {
  const hash = createHash('sha512');
  for await (const chunk of createReadStream(file)) hash.update(chunk);
  return Buffer.concat([Buffer.from(`${MESSAGE_LABEL}version ${version}\n`), hash.digest()]);
}

/**
 * `--<name> <value>` taken out of the arguments.
 * @param {string[]} list
 * @param {string} name
 */
function option(list, name) {
  const at = list.indexOf(`--${name}`);
  if (at === -1) return undefined;
  const [value] = list.splice(at, 2).slice(1);
  if (!value) fail(`--${name} needs a value`);
  return value;
}

/** The public key pinned in the app, read from its source so that no build is needed. */
function pinnedPublicKey() {
  const source = readFileSync(join(root, 'main/electron/update-public-key.ts'), 'utf8');
  const pem = /-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----/.exec(source);
  if (!pem) throw new Error('main/electron/update-public-key.ts holds no public key');
  return pem[0];
}

/** @param {string} text */
function fail(text) {
  console.error(text);
  process.exit(1);
}

const [command, ...args] = process.argv.slice(2);
const version = option(args, 'version') ?? JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
if (command === 'keygen') {
  const [target] = args;
  if (!target) fail('Usage: node packaging/sign-update.mjs keygen <private-key-file>');
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  writeFileSync(/** @type {string} */ (target), privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  process.stdout.write(publicKey.export({ type: 'spki', format: 'pem' }).toString());
} else if (command === 'sign') {
  const pem = process.env.UPDATE_SIGNING_KEY;
  if (!pem) fail('UPDATE_SIGNING_KEY must hold the private key (PEM) that signs the update files');
  if (args.length === 0) fail('Usage: node packaging/sign-update.mjs sign <file>...');
  const key = createPrivateKey(/** @type {string} */ (pem));
  for (const file of args) {
    writeFileSync(`${file}.sig`, sign(null, await message(file, version), key).toString('base64') + '\n');
    console.log(`signed ${file} as version ${version} -> ${file}.sig`);
  }
} else if (command === 'verify') {
  const keyFile = option(args, 'public-key');
  const publicKey = createPublicKey(keyFile === undefined ? pinnedPublicKey() : readFileSync(keyFile, 'utf8'));
  const files = args;
  if (files.length === 0) fail('Usage: node packaging/sign-update.mjs verify [--public-key <pem>] <file>...');
  let bad = 0;
  for (const file of files) {
    let signature;
    try {
      signature = Buffer.from(readFileSync(`${file}.sig`, 'utf8').trim(), 'base64');
    } catch {
      console.error(`${file}: no signature ${file}.sig`);
      bad += 1;
      continue;
    }
    const ok = signature.length === 64 && verify(null, await message(file, version), publicKey, signature);
    console.log(`${file}: the signature ${ok ? 'matches' : 'does NOT match'} ${keyFile === undefined ? 'the release key pinned in the app' : 'the given public key'} for version ${version}`);
    if (!ok) bad += 1;
  }
  process.exit(bad === 0 ? 0 : 1);
} else {
  fail('Usage: node packaging/sign-update.mjs keygen <private-key-file> | sign [--version <v>] <file>... | verify [--version <v>] [--public-key <pem>] <file>...');
}
